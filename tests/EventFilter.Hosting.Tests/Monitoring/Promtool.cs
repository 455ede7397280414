using System.Diagnostics;

namespace EventFilter.Hosting.Tests.Monitoring;

/// <summary>
/// Prometheus's <c>promtool</c> (Debian's <c>prometheus</c> package, which .ci/test-tools installs), run on files in a
/// directory. Missing, it fails the test saying how to install it: a skipped rules test would let a broken rule through.
/// </summary>
internal static class Promtool
{
    // A guard against a hung tool only: a run over the sample's rules takes well under a second.
    private static readonly TimeSpan HangGuard = TimeSpan.FromMinutes(2);

    /// <summary>Runs <c>promtool</c> with <paramref name="arguments"/> in <paramref name="directory"/>: its exit code and its output.</summary>
    public static (int ExitCode, string Output) Run(string directory, params string[] arguments)
    {
        var start = new ProcessStartInfo(Find())
        {
            WorkingDirectory = directory,
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start)!;
        Task<string> output = process.StandardOutput.ReadToEndAsync();
        Task<string> errors = process.StandardError.ReadToEndAsync();
        if (!process.WaitForExit(HangGuard))
        {
            process.Kill();
            Assert.Fail($"promtool {string.Join(' ', arguments)} did not end within {HangGuard}");
        }

        return (process.ExitCode, output.GetAwaiter().GetResult() + errors.GetAwaiter().GetResult());
    }

    private static string Find()
    {
        string[] path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':', StringSplitOptions.RemoveEmptyEntries);
        return path.Select(directory => Path.Combine(directory, "promtool")).FirstOrDefault(File.Exists)
            ?? throw new InvalidOperationException("promtool is missing: run .ci/test-tools, or apt-get install --no-install-recommends prometheus");
    }
}
