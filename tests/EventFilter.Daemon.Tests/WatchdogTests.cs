using EventFilter.Daemon.Server;
using Microsoft.Extensions.Hosting.Systemd;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Daemon.Tests;

/// <summary>The watchdog sends WATCHDOG=1 each interval only while the daemon answers its probe, and not before the host has started.</summary>
public sealed class WatchdogTests
{
    [Fact]
    public async Task Keep_alives_stop_while_the_daemon_does_not_serve_and_resume_when_it_does()
    {
        var time = new FakeTimeProvider();
        var notifier = new RecordingNotifier();
        bool serving = true;
        int probes = 0;
        Task<bool> Probe(TimeSpan timeout, CancellationToken stopping)
        {
            Interlocked.Increment(ref probes);
            return Task.FromResult(Volatile.Read(ref serving));
        }

        using var started = new CancellationTokenSource();
        using var watchdog = new Watchdog(notifier, Probe, TimeSpan.FromSeconds(15), started.Token, time, NullLogger.Instance);
        await watchdog.StartAsync(CancellationToken.None);
        time.Advance(TimeSpan.FromMinutes(1));
        Assert.Equal(0, Volatile.Read(ref probes));
        Assert.Empty(notifier.States);

        // The host has started: a keep-alive at once, then one per interval.
        await started.CancelAsync();
        await Poll.UntilAsync(() => notifier.States.Count == 1, "the first keep-alive");
        Volatile.Write(ref serving, false);
        time.Advance(TimeSpan.FromSeconds(15));
        await Poll.UntilAsync(() => Volatile.Read(ref probes) == 2, "the second probe");
        time.Advance(TimeSpan.FromSeconds(15));
        await Poll.UntilAsync(() => Volatile.Read(ref probes) == 3, "the third probe");
        Assert.Single(notifier.States);

        Volatile.Write(ref serving, true);
        time.Advance(TimeSpan.FromSeconds(15));
        await Poll.UntilAsync(() => notifier.States.Count == 2, "the keep-alive after serving again");
        Assert.All(notifier.States, s => Assert.Equal("WATCHDOG=1", s));
        await watchdog.StopAsync(CancellationToken.None);
    }

    [Theory]
    [InlineData("30000000", null, 15_000.0)]
    [InlineData("30000000", "42", 15_000.0)]
    [InlineData("30000000", "43", null)]
    [InlineData(null, null, null)]
    [InlineData("0", null, null)]
    [InlineData("soon", null, null)]
    public void The_interval_is_half_of_watchdog_usec_for_this_process_only(string? usec, string? pid, double? milliseconds)
    {
        Assert.Equal(milliseconds, Watchdog.Interval(usec, pid, processId: 42)?.TotalMilliseconds);
    }

    private sealed class RecordingNotifier : ISystemdNotifier
    {
        private readonly List<string> _states = [];

        public bool IsEnabled => true;

        public IReadOnlyList<string> States
        {
            get
            {
                lock (_states)
                {
                    return [.. _states];
                }
            }
        }

        public void Notify(ServiceState state)
        {
            lock (_states)
            {
                _states.Add(state.ToString());
            }
        }
    }
}
