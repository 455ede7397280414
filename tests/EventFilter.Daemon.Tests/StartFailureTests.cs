using System.Diagnostics;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Every failed start is one line and a documented exit code (docs/daemon.md, "Starting and stopping"), before any
/// file is touched: no stack trace on either stream, and the data directory compared file by file (or, for a new one,
/// not made at all). Each case pins a start that used to end otherwise, named in its test.
/// </summary>
[System.Runtime.Versioning.UnsupportedOSPlatform("windows")]
public sealed class StartFailureTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    /// <summary>Was: the lock file's UnauthorizedAccessException, exit 134 and a 12-line stack trace.</summary>
    [RootFact]
    public void A_data_directory_its_user_may_not_write_is_refused_in_one_line_changing_nothing()
    {
        string data = FilledDataDirectory(_directory.Path);
        OpenToOthers(data);
        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);

        string line = Refused(5, Run(["runuser", "-u", "nobody", "--"], data));
        Assert.Contains($"may not write in '{data}'", line, StringComparison.Ordinal);
        Assert.Contains("give it write access", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: exit 3, "in use by another eventfilterd", when the lock file could not be opened for writing.</summary>
    [RootFact]
    public void A_read_only_data_directory_is_refused_in_one_line_not_called_in_use()
    {
        using SmallTmpfs disk = SmallTmpfs.Mount(Path.Combine(_directory.Path, "disk"), kilobytes: 8192);
        string data = FilledDataDirectory(disk.Path);
        disk.RemountReadOnly();
        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);

        string line = Refused(5, Run([], data));
        Assert.Contains($"may not write in '{data}'", line, StringComparison.Ordinal);
        Assert.Contains("read-only file system", line, StringComparison.Ordinal);
        Assert.DoesNotContain("in use", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: the new data directory, its lock file, filters/ and control logs made before exit 4.</summary>
    [Fact]
    public void A_socket_in_use_is_refused_in_one_line_before_a_new_data_directory_is_made()
    {
        using DaemonProcess first = DaemonProcess.Start(Path.Combine(_directory.Path, "first"));
        string data = Path.Combine(_directory.Path, "second");

        string line = Refused(4, Run([], data, first.SocketPath));
        Assert.Contains("another server is listening on the socket", line, StringComparison.Ordinal);
        Assert.False(Directory.Exists(data), "the refused start made its data directory");
        using RespClient client = first.Connect();
        Assert.Equal("PONG", client.Call("PING"));
    }

    /// <summary>Was: the filters opened (a start's tick run) before the bind failed with exit 4.</summary>
    [Fact]
    public void A_tcp_port_in_use_is_refused_in_one_line_changing_nothing()
    {
        string data = FilledDataDirectory(_directory.Path);
        using var taken = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        taken.Start();
        int port = ((System.Net.IPEndPoint)taken.LocalEndpoint).Port;
        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);

        string line = Refused(4, Run([], data, arguments: ["--port", port.ToString(System.Globalization.CultureInfo.InvariantCulture)]));
        Assert.Contains($"cannot listen on 127.0.0.1:{port}", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: exit 134, "Could not load file or assembly 'System.Threading'" and the runtime's stack trace.</summary>
    [Fact]
    public void A_tiny_descriptor_limit_is_refused_in_one_line_changing_nothing()
    {
        string data = FilledDataDirectory(_directory.Path);
        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);

        string line = Refused(5, Run(["prlimit", "--nofile=64:64"], data));
        Assert.Contains("the limit (RLIMIT_NOFILE) is 64", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: exit 134 ("Out of memory.") once it had listened, or exit 6 or 7 with a stack trace, the new files made.</summary>
    [Fact]
    public void An_address_space_limit_too_small_for_the_runtime_is_refused_in_one_line_changing_nothing()
    {
        string data = FilledDataDirectory(_directory.Path);
        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);

        string line = Refused(5, Run(["prlimit", "--as=2147483648"], data));
        Assert.Contains("the limit (RLIMIT_AS) is 2,147,483,648 bytes", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: a damaged control file's hint said to move a directory out of filters/, which is not where it is.</summary>
    [Fact]
    public void A_damaged_control_log_is_refused_in_one_line_that_says_not_to_remove_it()
    {
        string data = FilledDataDirectory(_directory.Path);
        string control = Path.Combine(data, "control-0.log");
        using (FileStream file = File.OpenWrite(control))
        {
            file.Write("damaged"u8);
        }

        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);
        string line = Refused(5, Run([], data));
        Assert.Contains($"'{control}' is not a control log", line, StringComparison.Ordinal);
        Assert.Contains("Do not move or delete it", line, StringComparison.Ordinal);
        Assert.DoesNotContain("out of filters/", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: a start that listened and then refused every create, with no word at start.</summary>
    [Fact]
    public void Max_clients_that_do_not_fit_the_descriptor_limit_are_refused_in_one_line_changing_nothing()
    {
        string data = FilledDataDirectory(_directory.Path);
        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);

        string line = Refused(5, Run(["prlimit", "--nofile=400:400"], data, arguments: ["--max-clients", "1024"]));
        Assert.Contains("the 1 filters need about 4 file descriptors", line, StringComparison.Ordinal);
        Assert.Contains("--max-clients 1,024", line, StringComparison.Ordinal);
        Assert.Contains("the limit (RLIMIT_NOFILE) is 400", line, StringComparison.Ordinal);
        Assert.Contains("or lower --max-clients to ", line, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>Was: the lock made the new directory and its lock file before the check refused the start.</summary>
    [Fact]
    public void Max_clients_that_do_not_fit_are_refused_before_a_new_data_directory_is_made()
    {
        string data = Path.Combine(_directory.Path, "new", "data");
        string line = Refused(5, Run(["prlimit", "--nofile=400:400"], data, Path.Combine(_directory.Path, "eventfilterd.sock"), ["--max-clients", "1024"]));
        Assert.Contains("the 0 filters need about 0 file descriptors", line, StringComparison.Ordinal);
        Assert.Contains("or lower --max-clients to ", line, StringComparison.Ordinal);
        Assert.Empty(Directory.GetFileSystemEntries(_directory.Path));
    }

    /// <summary>A data directory with one filter holding an item, its lock file and control logs, after a clean stop.</summary>
    private static string FilledDataDirectory(string parent)
    {
        string data = Path.Combine(parent, "data");
        using DaemonProcess daemon = DaemonProcess.Start(data);
        using (RespClient client = daemon.Connect())
        {
            Assert.Equal(1L, client.Call("BF.ADD", "made", "x"));
        }

        Assert.Equal(0, daemon.Stop());
        return data;
    }

    /// <summary>Lets another user reach and read the data directory (not write it): the temporary directory is 0700.</summary>
    private static void OpenToOthers(string data)
    {
        for (string? directory = data; directory is not null && directory != Path.GetTempPath().TrimEnd('/'); directory = Path.GetDirectoryName(directory))
        {
            File.SetUnixFileMode(directory, File.GetUnixFileMode(directory) | UnixFileMode.OtherRead | UnixFileMode.OtherExecute);
        }
    }

    /// <summary>Asserts the exit code, one line on stderr and nothing on stdout, and no stack frame; returns the line.</summary>
    private static string Refused(int expected, (int ExitCode, string Output, string Error) run)
    {
        string all = $"exit {run.ExitCode}\nstdout:\n{run.Output}\nstderr:\n{run.Error}";
        Assert.True(run.ExitCode == expected, all);
        Assert.DoesNotContain("   at ", run.Output + run.Error, StringComparison.Ordinal);
        Assert.True(run.Output.Length == 0, all);
        string[] lines = run.Error.Split('\n', StringSplitOptions.RemoveEmptyEntries);
        Assert.True(lines.Length == 1 && lines[0].StartsWith("eventfilterd: ", StringComparison.Ordinal), all);
        return lines[0];
    }

    /// <summary>The daemon behind <paramref name="prefix"/> (prlimit, runuser), run until it exits.</summary>
    private static (int ExitCode, string Output, string Error) Run(string[] prefix, string data, string? socket = null, string[]? arguments = null)
    {
        string[] command = [.. prefix, Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "/usr/bin/dotnet",
            Path.Combine(AppContext.BaseDirectory, "eventfilterd.dll"), "--data", data, "--socket", socket ?? Path.Combine(data, "eventfilterd.sock"), .. arguments ?? []];
        var start = new ProcessStartInfo(command[0]) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        command.Skip(1).ToList().ForEach(start.ArgumentList.Add);
        using Process process = Process.Start(start)!;
        Task<string> error = process.StandardError.ReadToEndAsync();
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        if (!process.WaitForExit(TimeSpan.FromSeconds(60)))
        {
            process.Kill(entireProcessTree: true); // a start that was not refused would serve, and hold its output open
            Assert.Fail("the start was not refused: it still ran after 60 s");
        }

        return (process.ExitCode, output.Result, error.Result);
    }
}
