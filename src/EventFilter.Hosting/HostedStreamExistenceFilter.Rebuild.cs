using System.Diagnostics.CodeAnalysis;
using EventFilter.Hosting.Telemetry;

namespace EventFilter.Hosting;

/// <summary>The operator's online rebuild: started on request, run in the background, awaited by StopAsync.</summary>
internal sealed partial class HostedStreamExistenceFilter : IFilterRebuildControl
{
    private readonly Lock _rebuildGate = new();
    private Task _rebuild = Task.CompletedTask;

    /// <inheritdoc/>
    public FilterRebuildProgress? Rebuild
    {
        get
        {
            if (_filter.OnlineRebuild is not { } reason)
            {
                return null;
            }

            // While rebuilding, a report about any other file than the serving one is about the file being built.
            CatchUpProgress? building = _observer.LastProgress is { } last && last.Path != _filterOptions.FilterPath ? last : null;
            return new FilterRebuildProgress(reason, building?.Percent ?? 0, building?.EstimatedRemaining);
        }
    }

    /// <inheritdoc/>
    public bool TryStartRebuild([NotNullWhen(false)] out string? refusal)
    {
        lock (_rebuildGate)
        {
            refusal = Refusal();
            if (refusal is not null)
            {
                return false;
            }

            Task rebuild = _filter.RebuildAsync(_stopping!.Token);
            if (rebuild is { IsFaulted: true, Exception.InnerException: InvalidOperationException refused })
            {
                // Claimed meanwhile by the filter's own rebuild or resize: nothing was started.
                refusal = refused.Message;
                return false;
            }

            _rebuild = ObserveRebuildAsync(rebuild, _stopping.Token);
            return true;
        }
    }

    /// <summary>The rebuild started last, for StopAsync to await once it has cancelled it.</summary>
    private Task RebuildTask
    {
        get
        {
            lock (_rebuildGate)
            {
                return _rebuild;
            }
        }
    }

    private string? Refusal()
    {
        if (_filter.State == FilterState.Disabled)
        {
            return "the filter is disabled (size 0)";
        }

        if (_stopping is not { IsCancellationRequested: false } || _stopped)
        {
            return "the filter is stopping";
        }

        if (_filter.State != FilterState.Ready)
        {
            return $"the filter is not ready ({_filter.State}); a catch-up builds it from the log anyway";
        }

        if (_filter.IsResizing)
        {
            return "a resize is under way; it builds a fresh file anyway";
        }

        return _filter.OnlineRebuild is not null || !_rebuild.IsCompleted ? "an online rebuild is already under way" : null;
    }

    private async Task ObserveRebuildAsync(Task rebuild, CancellationToken stopping)
    {
        try
        {
            await rebuild.ConfigureAwait(false);
            RefreshStatistics();
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Stopping: the rebuild is abandoned; its file is discarded on the next start.
            _observer.Spans.Cancelled();
        }
        catch (Exception)
        {
            // The observer has logged, counted and kept it (BackgroundWorkFailed); the health check reads it from there.
        }
    }
}
