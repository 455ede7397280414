using System.Diagnostics;
using System.Text;
using Xunit.Abstractions;

namespace EventFilter.Daemon.Tests.RedisBloomFlow;

/// <summary>
/// RedisBloom's own flow tests of the BF.* commands (tests/flow/test_overall.py of its source archive), run against
/// eventfilterd by our adapter run_flow.py (docs/daemon.md, "RedisBloom's flow tests"): each test passes, differs as
/// documented, or is listed as not applicable with its reason; any other failure fails this test, which prints the
/// adapter's per-test list. The adapter asks for a restart where a test reloads Redis; eventfilterd persists, so a
/// restart on the same data directory is the honest equivalent. Skipped, with the reason, without the archive or
/// without /usr/bin/python3 and redis-py.
/// </summary>
public sealed class RedisBloomFlowTests(ITestOutputHelper output)
{
    // A guard against a hung adapter only: a whole run takes some 30 s.
    private static readonly TimeSpan HangGuard = TimeSpan.FromMinutes(5);

    [RedisBloomFlowFact]
    public void RedisBloom_flow_tests_that_apply_pass_or_differ_as_documented()
    {
        using var directory = new TempDirectory();
        DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        try
        {
            var start = new ProcessStartInfo(RedisBloomFlowFactAttribute.Python)
            {
                RedirectStandardInput = true,
                RedirectStandardOutput = true,
                RedirectStandardError = true,
                UseShellExecute = false,
                Environment = { ["PYTHONDONTWRITEBYTECODE"] = "1" },
                ArgumentList =
                {
                    Path.Combine(AppContext.BaseDirectory, "RedisBloomFlow", "run_flow.py"),
                    "--archive", RedisBloomFlowFactAttribute.Archive!,
                    "--socket", daemon.SocketPath,
                },
            };
            using Process adapter = Process.Start(start)!;
            var errors = new StringBuilder();
            adapter.ErrorDataReceived += (_, e) =>
            {
                lock (errors)
                {
                    errors.AppendLine(e.Data);
                }
            };
            adapter.BeginErrorReadLine();
            bool hung = false;
            using var guard = new Timer(_ => { hung = true; adapter.Kill(); }, null, HangGuard, Timeout.InfiniteTimeSpan);

            var list = new StringBuilder();
            while (adapter.StandardOutput.ReadLine() is { } line)
            {
                if (line == "@@reload")
                {
                    Assert.Equal(0, daemon.Stop());
                    daemon.Dispose();
                    daemon = DaemonProcess.Start(directory.Path);
                    adapter.StandardInput.WriteLine("ready");
                    adapter.StandardInput.Flush();
                    continue;
                }

                output.WriteLine(line);
                list.AppendLine(line);
            }

            adapter.WaitForExit();
            string report = $"{list}{errors}";
            Assert.False(hung, $"run_flow.py did not end within {HangGuard}:\n{report}");
            Assert.Contains("RedisBloom flow tests: ", report, StringComparison.Ordinal);
            Assert.True(adapter.ExitCode == 0, $"RedisBloom's flow tests failed against eventfilterd (FAILED lines):\n{report}\ndaemon:\n{daemon.Output}");
        }
        finally
        {
            daemon.Dispose();
        }
    }
}

/// <summary>Skips, with the reason, where RedisBloom's source archive or Debian's python3 with redis-py is missing.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RedisBloomFlowFactAttribute : FactAttribute
{
    /// <summary>Debian's python, which python3-redis installs redis-py for (a python3 first on PATH may be another).</summary>
    public const string Python = "/usr/bin/python3";

    public RedisBloomFlowFactAttribute()
    {
        if (Missing is { } reason)
        {
            Skip = reason;
        }
    }

    /// <summary>REDISBLOOM_SOURCE, else the archive in shared/ beside the repository.</summary>
    public static string? Archive { get; } = new[]
    {
        Environment.GetEnvironmentVariable("REDISBLOOM_SOURCE"),
        Path.Combine(RepositoryFiles.Root, "..", "shared", "peers", "redisbloom", "RedisBloom-2.4.23.tar.gz"),
    }.FirstOrDefault(path => !string.IsNullOrEmpty(path) && File.Exists(path));

    private static string? Missing { get; } =
        Archive is null ? "RedisBloom's source archive is missing: set REDISBLOOM_SOURCE, or put it at ../shared/peers/redisbloom/RedisBloom-2.4.23.tar.gz"
        : !File.Exists(Python) ? $"{Python} is missing: apt-get install python3-redis"
        : !HasRedisPy() ? $"redis-py is missing for {Python}: apt-get install python3-redis"
        : null;

    private static bool HasRedisPy()
    {
        using Process check = Process.Start(new ProcessStartInfo(Python) { ArgumentList = { "-c", "import redis" }, RedirectStandardError = true, UseShellExecute = false })!;
        check.StandardError.ReadToEnd();
        check.WaitForExit();
        return check.ExitCode == 0;
    }
}
