using System.Diagnostics;
using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>One in-process run of the tool: its exit code and everything it wrote.</summary>
public sealed record CliRun(int ExitCode, string Stdout, string Stderr)
{
    public static CliRun Of(params string[] args)
    {
        using var stdout = new StringWriter();
        using var stderr = new StringWriter();
        int exitCode = Cli.RunAsync(args, stdout, stderr, TimeProvider.System).GetAwaiter().GetResult();
        return new CliRun(exitCode, stdout.ToString(), stderr.ToString());
    }

    /// <summary>One run of the real tool process (<c>dotnet EventFilter.Cli.dll</c>), as a shell would start it.</summary>
    public static CliRun OfProcess(params string[] args)
    {
        var start = new ProcessStartInfo(Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
        };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "EventFilter.Cli.dll"));
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        using Process process = Process.Start(start)!;
        Task<string> stderr = process.StandardError.ReadToEndAsync();
        string stdout = process.StandardOutput.ReadToEnd();
        Assert.True(process.WaitForExit(30_000), "the tool did not exit within 30 s");
        return new CliRun(process.ExitCode, stdout, stderr.GetAwaiter().GetResult());
    }

    /// <summary>Stdout parsed as the one JSON object --json promises.</summary>
    public JsonElement Json()
    {
        using var document = JsonDocument.Parse(Stdout);
        return document.RootElement.Clone();
    }

    /// <summary>Stderr's non-empty lines.</summary>
    public string[] ErrorLines => Stderr.Split('\n', StringSplitOptions.RemoveEmptyEntries | StringSplitOptions.TrimEntries);

    /// <summary>The failure contract: the exit code (2 unless told), nothing on stdout, one line on stderr, and no stack trace.</summary>
    public void AssertOneLineFailure(string expectedInMessage, int exitCode = 2)
    {
        Assert.Equal(string.Empty, Stdout);
        AssertOneErrorLine(expectedInMessage, exitCode);
    }

    /// <summary>
    /// The failure contract under --json: the one line on stderr, and on stdout exactly
    /// <c>{ "error": message, "exitCode": code }</c>, the message being the stderr line's after "eventfilter: error: ".
    /// </summary>
    public void AssertJsonFailure(string expectedInMessage, int exitCode = 2)
    {
        AssertOneErrorLine(expectedInMessage, exitCode);
        JsonElement json = Json();
        Assert.Equal(["error", "exitCode"], [.. json.EnumerateObject().Select(p => p.Name)]);
        Assert.Equal(exitCode, json.GetProperty("exitCode").GetInt32());
        Assert.Equal("eventfilter: error: " + json.GetProperty("error").GetString(), Assert.Single(ErrorLines));
        Assert.DoesNotContain("\\u00", Stdout, StringComparison.Ordinal); // quotes in file names stay readable
    }

    private void AssertOneErrorLine(string expectedInMessage, int exitCode)
    {
        Assert.Equal(exitCode, ExitCode);
        string line = Assert.Single(ErrorLines);
        Assert.Contains(expectedInMessage, line, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("   at ", Stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception:", Stderr, StringComparison.Ordinal);
    }
}
