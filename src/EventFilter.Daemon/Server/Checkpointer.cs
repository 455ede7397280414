using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Telemetry;
using EventFilter.Threading;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Every sync interval (1 s by default): fsync each changed digest log, and checkpoint its layers at the log's end once
/// NamedFilter.CheckpointEveryBytes piled up;
/// then make the creates and deletes of the interval durable, and remove deleted filters' files.
/// With --log-sync periodic this is what bounds the loss on power failure; in both modes it keeps catch-up on start short.
/// Each tick also logs a change of health (docs/daemon.md, "Telemetry"). Failures are counted one by one in the metrics
/// but logged once per episode: the first, with its exception, then a line when a tick succeeds again. A failure that
/// repeats (a full disk, no descriptors) would otherwise log once per filter per tick.
/// </summary>
internal sealed class Checkpointer(DaemonOptions options, FilterStore store, DaemonMetrics metrics, DaemonHealth health, TimeProvider time, ILogger logger) : BackgroundService
{
    // The episode of failing ticks under way: its failures and when it began; 0 failures when none is. The ticks' thread only.
    private long _episodeFailures;
    private long _episodeStarted;

    // The ticks run on a thread of their own in the batch scheduling class: a tick waking from an fsync never preempts
    // a connection's thread (docs/design.md, "Background work").
    protected override Task ExecuteAsync(CancellationToken stoppingToken) =>
        BackgroundThreads.Run("eventfilterd sync", () => RunTicks(stoppingToken));

    private void RunTicks(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(options.SyncInterval, time);
        try
        {
            // The thread is the ticks' own, so it may block between them.
            while (timer.WaitForNextTickAsync(stoppingToken).AsTask().GetAwaiter().GetResult())
            {
                long itemsBefore = metrics.Totals.ItemsAdded;
                bool failed = false;
                foreach (NamedFilter filter in store.Snapshot())
                {
                    try
                    {
                        filter.Checkpoint(final: false);
                    }
                    catch (Exception e) when (e is IOException or ObjectDisposedException)
                    {
                        // Logged, not fatal: adds stay in the log, and the next tick tries again.
                        failed = true;
                        Failed(e);
                    }
                }

                try
                {
                    // After the filters' checkpoints, which fsync new filters' logs: the names of new and deleted filters.
                    store.SyncDirectories();
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    failed = true;
                    Failed(e);
                }

                // INFO's rdb_last_save_time and rdb_last_bgsave_status: the adds before this tick are on the disk now.
                metrics.Totals.Synced(itemsBefore, failed);
                if (!failed && _episodeFailures > 0)
                {
                    Log.CheckpointsRecovered(logger, _episodeFailures, time.GetElapsedTime(_episodeStarted).TotalSeconds);
                    _episodeFailures = 0;
                }

                // Once per interval: a failure degrades health at once, recovery shows after DaemonHealth.DegradedFor.
                health.Report();
            }
        }
        catch (OperationCanceledException)
        {
            // Stopping: FilterLifetime takes the last checkpoint.
        }
    }

    private void Failed(Exception error)
    {
        metrics.Error(DaemonMetrics.Operation.Checkpoint);
        if (_episodeFailures++ == 0)
        {
            _episodeStarted = time.GetTimestamp();
            Log.CheckpointFailed(logger, error.Message, error);
        }
    }
}
