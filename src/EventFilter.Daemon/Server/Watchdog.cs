using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Hosting.Systemd;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// systemd's watchdog (WatchdogSec= in the unit): every half of WATCHDOG_USEC, sends WATCHDOG=1 through the package's
/// <see cref="ISystemdNotifier"/>, but only when the daemon really serves: <see cref="ServingProbe"/> has it answer its
/// own PING on its socket. A daemon whose accept thread died or whose commands hang stops the keep-alives, and the
/// service manager restarts it (Restart=on-failure). Does nothing without WATCHDOG_USEC or when WATCHDOG_PID names
/// another process. Starts once the host has started (<paramref name="started"/>), so the first keep-alive follows READY=1.
/// </summary>
internal sealed class Watchdog(ISystemdNotifier notifier, Func<TimeSpan, CancellationToken, Task<bool>> serves, TimeSpan? interval, CancellationToken started, TimeProvider time, ILogger logger) : BackgroundService
{
    private static readonly ServiceState KeepAlive = new("WATCHDOG=1");

    /// <summary>Half the watchdog timeout systemd gave this process, as sd_watchdog_enabled(3) advises; null when there is none.</summary>
    public static TimeSpan? IntervalFromEnvironment() =>
        Interval(Environment.GetEnvironmentVariable("WATCHDOG_USEC"), Environment.GetEnvironmentVariable("WATCHDOG_PID"), Environment.ProcessId);

    /// <summary><see cref="IntervalFromEnvironment"/> from the variables' values.</summary>
    public static TimeSpan? Interval(string? watchdogMicroseconds, string? watchdogPid, int processId)
    {
        if (!long.TryParse(watchdogMicroseconds, System.Globalization.NumberStyles.None, System.Globalization.CultureInfo.InvariantCulture, out long microseconds) || microseconds <= 0)
        {
            return null;
        }

        if (watchdogPid is { Length: > 0 } pid && pid != processId.ToString(System.Globalization.CultureInfo.InvariantCulture))
        {
            return null;
        }

        return TimeSpan.FromMicroseconds(microseconds / 2.0);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        if (interval is not { } every || !notifier.IsEnabled)
        {
            return;
        }

        bool withheld = false;
        try
        {
            var hostStarted = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
            using (started.Register(() => hostStarted.TrySetResult()))
            {
                await hostStarted.Task.WaitAsync(stoppingToken);
            }

            using var timer = new PeriodicTimer(every, time);
            do
            {
                // The probe gets the interval to answer in: a later keep-alive would be too late anyway.
                if (await serves(every, stoppingToken))
                {
                    notifier.Notify(KeepAlive);
                    if (withheld)
                    {
                        withheld = false;
                        Log.WatchdogResumed(logger);
                    }
                }
                else if (!withheld && !stoppingToken.IsCancellationRequested)
                {
                    withheld = true;
                    Log.WatchdogWithheld(logger);
                }
            }
            while (await timer.WaitForNextTickAsync(stoppingToken));
        }
        catch (OperationCanceledException)
        {
            // Stopping: systemd stops watching once it hears STOPPING=1.
        }
    }
}
