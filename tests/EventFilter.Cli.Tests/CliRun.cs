using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>One in-process run of the tool: its exit code and everything it wrote.</summary>
public sealed record CliRun(int ExitCode, string Stdout, string Stderr)
{
    public static CliRun Of(params string[] args)
    {
        using var stdout = new StringWriter();
        using var stderr = new StringWriter();
        int exitCode = Cli.RunAsync(args, stdout, stderr).GetAwaiter().GetResult();
        return new CliRun(exitCode, stdout.ToString(), stderr.ToString());
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
        Assert.Equal(exitCode, ExitCode);
        Assert.Equal(string.Empty, Stdout);
        string line = Assert.Single(ErrorLines);
        Assert.Contains(expectedInMessage, line, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("   at ", Stderr, StringComparison.Ordinal);
        Assert.DoesNotContain("Exception:", Stderr, StringComparison.Ordinal);
    }
}
