using System.Diagnostics;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// deploy/eventfilterd.service: `systemd-analyze verify` passes (deploy/verify-unit.sh, which .ci/extra also runs,
/// installing the tool), and the unit agrees with the daemon: notify, its directories, the stop timeout the stop test uses.
/// </summary>
public sealed class UnitFileTests
{
    private static readonly string Deploy = Path.Combine(AppContext.BaseDirectory, "deploy");

    [SystemdAnalyzeFact]
    public void Systemd_analyze_verify_passes()
    {
        var start = new ProcessStartInfo(Path.Combine(Deploy, "verify-unit.sh")) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        using Process check = Process.Start(start)!;
        Task<string> errors = check.StandardError.ReadToEndAsync();
        string output = check.StandardOutput.ReadToEnd();
        Assert.True(check.WaitForExit(TimeSpan.FromMinutes(2)));
        Assert.True(check.ExitCode == 0, output + errors.Result);
        Assert.Contains("eventfilterd.service OK", output, StringComparison.Ordinal);
    }

    [Fact]
    public void The_unit_runs_the_daemon_as_a_notify_service_in_its_own_directories()
    {
        string[] lines = File.ReadAllLines(Path.Combine(Deploy, "eventfilterd.service"));
        string exec = Assert.Single(lines, l => l.StartsWith("ExecStart=", StringComparison.Ordinal));
        Assert.Contains("Type=notify", lines);
        Assert.Contains("User=eventfilterd", lines);
        Assert.Contains("StateDirectory=eventfilterd", lines);
        Assert.Contains("RuntimeDirectory=eventfilterd", lines);
        Assert.Contains("--data /var/lib/eventfilterd", exec, StringComparison.Ordinal);
        Assert.Contains("--socket /run/eventfilterd/eventfilterd.sock", exec, StringComparison.Ordinal);
        Assert.Contains("TimeoutStopSec=60", lines);
        Assert.Contains(lines, l => l.StartsWith("WatchdogSec=", StringComparison.Ordinal));
        Assert.Contains("ProtectSystem=strict", lines);
        Assert.Contains("NoNewPrivileges=yes", lines);
        Assert.Contains("PrivateTmp=yes", lines);
    }

    /// <summary>Skipped, with the reason, where systemd-analyze is not installed (.ci/run installs it before the tests).</summary>
    [AttributeUsage(AttributeTargets.Method)]
    private sealed class SystemdAnalyzeFactAttribute : FactAttribute
    {
        public SystemdAnalyzeFactAttribute()
        {
            string[] path = (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':');
            if (!path.Any(directory => File.Exists(Path.Combine(directory, "systemd-analyze"))))
            {
                Skip = "systemd-analyze is not installed (Debian's systemd package; .ci/run and deploy/verify-unit.sh install it)";
            }
        }
    }
}
