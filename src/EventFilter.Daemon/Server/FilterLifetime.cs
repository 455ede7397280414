using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Opens every filter before the host starts (each caught up from its digest log), and on a clean stop, after the
/// listener and the checkpointer, takes a last checkpoint of each and closes it. Registered first so it stops last.
/// </summary>
internal sealed class FilterLifetime(FilterStore store) : IHostedService
{
    /// <summary>
    /// Opens the filters; false, with the reason in one line, when the data directory holds a damaged digest log or
    /// cannot be read. Called before the host starts: a hosted service's failure would come out as the host's stack trace.
    /// </summary>
    public static bool TryOpen(IServiceProvider services, [System.Diagnostics.CodeAnalysis.NotNullWhen(false)] out string? problem)
    {
        FilterStore store = services.GetRequiredService<FilterStore>();
        LayerObserver layers = services.GetRequiredService<LayerObserver>();
        ILogger logger = services.GetRequiredService<ILogger>();
        TimeProvider time = services.GetRequiredService<TimeProvider>();
        long started = time.GetTimestamp();
        layers.StartOpening();
        try
        {
            store.Open();
            layers.StartOpened(logger);
            DescriptorBudget.MeasureBase();
        }
        catch (StartRefusedException e)
        {
            problem = $"cannot start: {e.Message} Nothing was changed.";
            return false;
        }
        catch (InvalidDataException e) when (e.Data.Contains(ControlFile.DamagedKey))
        {
            problem = $"cannot open the filters: {e.Message} Nothing was changed. Do not move or delete it: it may hold the only record of creates, drops and items since the last sync. Keep a copy of the data directory and restore the file from a backup, or run the release that wrote it (docs/daemon-design.md, \"Control-log recovery\").";
            return false;
        }
        catch (InvalidDataException e)
        {
            problem = $"cannot open the filters: {e.Message} Nothing was changed. `eventfilter inspect` on the data directory shows each filter's state; to start without a damaged filter, move its directory out of filters/ (docs/daemon-design.md, \"Durability\").";
            return false;
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or OutOfMemoryException)
        {
            // Past the checks (StartCheck): what the start did is redone by the next one, and nothing acknowledged is lost.
            problem = $"cannot open the filters: {e.Message} The start stopped part way; the next start redoes its steps (docs/daemon.md, \"Starting and stopping\").";
            return false;
        }

        Log.FiltersOpened(logger, store.Count, time.GetElapsedTime(started).TotalMilliseconds);
        services.GetRequiredService<DaemonMetrics>().Observe(store);
        problem = null;
        return true;
    }

    public Task StartAsync(CancellationToken cancellationToken) => Task.CompletedTask;

    public Task StopAsync(CancellationToken cancellationToken)
    {
        store.Dispose();
        return Task.CompletedTask;
    }
}
