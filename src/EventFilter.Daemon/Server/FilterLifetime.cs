using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Opens every filter before the listener starts (each caught up from its digest log), and on a clean stop, after the
/// listener and the checkpointer, takes a last checkpoint of each and closes it. Registered first so it stops last.
/// </summary>
internal sealed class FilterLifetime(FilterStore store, DaemonMetrics metrics, ILogger logger) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        long started = System.Diagnostics.Stopwatch.GetTimestamp();
        store.Open();
        Log.FiltersOpened(logger, store.Count, System.Diagnostics.Stopwatch.GetElapsedTime(started).TotalMilliseconds);
        metrics.Observe(store);
        return Task.CompletedTask;
    }

    public Task StopAsync(CancellationToken cancellationToken)
    {
        store.Dispose();
        return Task.CompletedTask;
    }
}
