using System.Text;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Configuration;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// --help and --version exit 0; every setting comes from the command line, the environment or --config's file, the
/// command line winning over the environment over the file; a wrong value is one line naming it as it was given.
/// </summary>
public sealed class CommandLineTests
{
    private static readonly Dictionary<string, string> NoEnvironment = [];

    [Fact]
    public void Help_lists_every_option_with_its_default_and_exits_0()
    {
        using var directory = new TempDirectory();
        (int code, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "s.sock"), "--help");
        Assert.Equal(0, code);
        var defaults = new DaemonOptions();
        foreach (DaemonSettings.Setting setting in DaemonSettings.All)
        {
            string line = Assert.Single(output.Split('\n'), l => l.TrimStart().StartsWith(setting.Option + " ", StringComparison.Ordinal));
            Assert.Contains($"[default: {setting.Default(defaults)}]", line, StringComparison.Ordinal);
        }

        Assert.Contains("--config <FILE>", output, StringComparison.Ordinal);
        Assert.Contains("--version", output, StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(directory.Path, "eventfilterd.lock")), "--help must not touch the data directory");
    }

    [Fact]
    public void Version_prints_the_version_from_git_and_exits_0()
    {
        // Alone: System.CommandLine refuses --version beside other options, so not through DaemonProcess (which adds --data).
        var start = new System.Diagnostics.ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet") { RedirectStandardOutput = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "eventfilterd.dll"));
        start.ArgumentList.Add("--version");
        using var process = System.Diagnostics.Process.Start(start)!;
        string output = process.StandardOutput.ReadToEnd();
        Assert.True(process.WaitForExit(TimeSpan.FromMinutes(1)));
        Assert.Equal(0, process.ExitCode);
        Assert.Equal(ServerCommands.DaemonVersion, output.Trim());
    }

    [Theory]
    [InlineData(new[] { "--port", "70000" }, "eventfilterd: --port must be from 1 to 65535; got '70000'.")]
    [InlineData(new[] { "--log-sync", "sometimes" }, "eventfilterd: --log-sync must be 'always' or 'periodic'; got 'sometimes'.")]
    [InlineData(new[] { "--socket-mode", "999" }, "eventfilterd: --socket-mode must be a number from 0 to 511; got '999'.")]
    [InlineData(new[] { "--default-error-rate", "1" }, "eventfilterd: --default-error-rate must be strictly between 0 and 1; got '1'.")]
    [InlineData(new[] { "--bind", "localhost" }, "eventfilterd: --bind must be an IPv4 or IPv6 address; got 'localhost'.")]
    [InlineData(new[] { "--bind", "::1" }, "eventfilterd: --bind needs --port: there is no TCP listener without a port.")]
    [InlineData(new[] { "--prot", "1" }, "eventfilterd: Unrecognized command or argument '--prot'. Run 'eventfilterd --help' for the options.")]
    public void A_wrong_option_is_one_line_naming_it_and_exit_2(string[] arguments, string expected)
    {
        using var directory = new TempDirectory();
        (int code, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "s.sock"), arguments);
        Assert.Equal(2, code);
        Assert.Equal(expected, output.Trim());
    }

    [Fact]
    public void A_wrong_value_in_the_environment_or_the_file_is_named_where_it_was_given()
    {
        using var directory = new TempDirectory();
        string socket = Path.Combine(directory.Path, "s.sock");
        (int code, string output) = DaemonProcess.RunToExit(new Dictionary<string, string> { ["EVENTFILTERD__MAXCLIENTS"] = "0" }, directory.Path, socket);
        Assert.Equal(2, code);
        Assert.Equal("eventfilterd: the environment variable Eventfilterd__MaxClients must be from 1 to 1000000; got '0'.", output.Trim());

        string file = Config(directory, """{ "Eventfilterd": { "SyncIntervalMs": 5 } }""");
        (code, output) = DaemonProcess.RunToExit(NoEnvironment, directory.Path, socket, "--config", file);
        Assert.Equal(2, code);
        Assert.Equal($"eventfilterd: Eventfilterd:SyncIntervalMs in {file} must be from 10 to 3600000; got '5'.", output.Trim());

        file = Config(directory, """{ "Eventfilterd": { "Prot": 6380 } }""");
        (code, output) = DaemonProcess.RunToExit(NoEnvironment, directory.Path, socket, "--config", file);
        Assert.Equal(2, code);
        Assert.StartsWith($"eventfilterd: Eventfilterd:Prot in {file} is not a setting; the settings are Data, Socket,", output.Trim(), StringComparison.Ordinal);

        file = Config(directory, "{ not json");
        (code, output) = DaemonProcess.RunToExit(NoEnvironment, directory.Path, socket, "--config", file);
        Assert.Equal(2, code);
        Assert.StartsWith($"eventfilterd: cannot read the configuration file '{file}':", output.Trim(), StringComparison.Ordinal);
        Assert.False(File.Exists(Path.Combine(directory.Path, "eventfilterd.lock")), "a bad setting must stop the start before the data directory is touched");
    }

    [Fact]
    public void Command_line_wins_over_environment_which_wins_over_the_file()
    {
        using var directory = new TempDirectory();
        string file = Config(directory, """{ "Eventfilterd": { "MaxClients": 10, "LogSync": "always" } }""");
        string data = Path.Combine(directory.Path, "data");
        var environment = new Dictionary<string, string> { ["Eventfilterd__MaxClients"] = "20" };
        Assert.Equal(("10", "always"), MaxClientsAndLogSync(NoEnvironment, data, "--config", file));
        Assert.Equal(("20", "always"), MaxClientsAndLogSync(environment, data, "--config", file));
        Assert.Equal(("30", "always"), MaxClientsAndLogSync(environment, data, "--config", file, "--max-clients", "30"));
        Assert.Equal(("20", "periodic"), MaxClientsAndLogSync(environment, data, "--config", file, "--log-sync", "periodic"));
    }

    private static (string MaxClients, string LogSync) MaxClientsAndLogSync(Dictionary<string, string> environment, string data, params string[] arguments)
    {
        using DaemonProcess daemon = DaemonProcess.StartWithEnvironment(environment, data, arguments);
        using RespClient client = daemon.Connect();
        Dictionary<string, string> info = InfoFields.Parse(Encoding.UTF8.GetString((byte[])client.Call("INFO")!)).SelectMany(s => s.Value).ToDictionary();
        Assert.Equal(0, daemon.Stop());
        return (info["maxclients"], info["log_sync"]);
    }

    private static string Config(TempDirectory directory, string json)
    {
        string path = Path.Combine(directory.Path, $"config-{Guid.NewGuid():N}.json");
        File.WriteAllText(path, json);
        return path;
    }
}
