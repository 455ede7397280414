using EventFilter.Daemon.Protocol;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Gives the memory of large request buffers back to the system once they are dropped (docs/daemon-design.md, "Memory"). They
/// live on the large object heap, which only a full collection frees, and after a burst nothing may allocate enough to
/// start one: the RSS a load raised would stay. So once per sync interval, when at least <see cref="TrimBytes"/> of them
/// were dropped, and at the first interval that drops none after some were, one full collection that also decommits
/// what it frees: a pause of milliseconds on the daemon's small heap, after a load, never on the path of an ordinary request.
/// </summary>
internal sealed class MemoryTrim(DaemonOptions options, TimeProvider time) : BackgroundService
{
    /// <summary>Below this a collection is not worth its pause: the next large request would take the memory again.</summary>
    public const long TrimBytes = 8L << 20;

    private long _pending;

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        using var timer = new PeriodicTimer(options.SyncInterval, time);
        try
        {
            while (await timer.WaitForNextTickAsync(stoppingToken))
            {
                long released = LargeBuffers.TakeReleased();
                _pending += released;

                // During a load, a collection per TrimBytes dropped; once the drops stop, one more for what is left, or
                // the buffers of the last connections to close (dropped after a trim, below TrimBytes) would stay resident.
                if (_pending >= TrimBytes || (_pending > 0 && released == 0))
                {
                    _pending = 0;
                    GC.Collect(GC.MaxGeneration, GCCollectionMode.Aggressive, blocking: true, compacting: true);
                }
            }
        }
        catch (OperationCanceledException)
        {
            // Stopping.
        }
    }
}
