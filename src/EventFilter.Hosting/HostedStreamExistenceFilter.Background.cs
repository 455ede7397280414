using System.Diagnostics;
using EventFilter.Hosting.Telemetry;
using EventFilter.Statistics;

namespace EventFilter.Hosting;

/// <summary>The background work: catch-up, then checkpoints and statistics on the <see cref="TimeProvider"/>'s timer.</summary>
internal sealed partial class HostedStreamExistenceFilter
{
    private volatile Exception? _checkpointFailure;

    /// <summary>Why the last checkpoint failed; null once one succeeds again.</summary>
    internal Exception? CheckpointFailure => _checkpointFailure;

    private string PositionSourceName => _positionSource is null
        ? $"{nameof(IStreamNameLog)}.{nameof(IStreamNameLog.EndPosition)}"
        : $"{_positionSource.GetType().Name}.{nameof(ICheckpointPositionSource.SafeCheckpointPosition)}";

    /// <summary>
    /// Where a checkpoint may claim to cover the log. Without an <see cref="ICheckpointPositionSource"/>, the log's
    /// durable end: the host must call Add before a record counts in it (docs/configuration.md, "Checkpoint position").
    /// </summary>
    private long SafePosition => _positionSource?.SafeCheckpointPosition ?? _log.EndPosition;

    private async Task RunCatchUpAsync(CancellationToken stopping)
    {
        try
        {
            // The gauges get a first snapshot at once, and a fresh one when the filter is ready.
            RefreshStatistics();

            // The core reports no start of catch-up, so its span starts here; the observer ends it at CatchUpCompleted.
            _observer.Spans.StartCatchUp(_filterOptions.FilterPath, _openSpan);
            await _filter.CatchUpAsync(stopping).ConfigureAwait(false);
            RefreshStatistics();
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Stopping: the next start resumes from the last checkpoint.
            _observer.Spans.Cancelled();
        }
        catch (Exception error)
        {
            // The observer has logged, counted and kept it (BackgroundWorkFailed), and ended the spans; the health
            // check reads it from there. Ended here too, for a failure the core did not report.
            _observer.Spans.Failed(error);
        }
    }

    private async Task RunCheckpointsAsync(PeriodicTimer timer, CancellationToken stopping)
    {
        // Each tick's checkpoint is a trace of its own, not a child of whatever span was current when the host started.
        Activity.Current = null;
        try
        {
            while (await timer.WaitForNextTickAsync(stopping).ConfigureAwait(false))
            {
                // A failed checkpoint is logged and reported by the health check; the next tick tries again.
                _ = TryCheckpoint(out _);
                RefreshStatistics();
            }
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Stopping: StopAsync takes the final checkpoint.
        }
    }

    /// <summary>
    /// Checkpoints at <see cref="SafePosition"/>. A failure is logged, counted and kept for the health check, and
    /// returned for the caller to rethrow or not.
    /// </summary>
    private Exception? TryCheckpoint(out long position)
    {
        position = -1;
        using Activity? span = FilterSpans.Start(FilterSpans.Checkpoint, _filterOptions.FilterPath);
        try
        {
            position = SafePosition;
            span?.SetTag("eventfilter.checkpoint.position", position);
            _filter.Checkpoint(position);
            _checkpointFailure = null;
            return null;
        }
        catch (Exception error)
        {
            _checkpointFailure = error;
            FilterSpans.Fail(span, error);
            _metrics.Files.RecordError(TagValues.Checkpoint, error);
            Telemetry.Log.CheckpointFailed(_logger, _filterOptions.FilterPath, position, error.Message, error);
            return error;
        }
    }

    /// <summary>
    /// Reads every line of the serving file, so it runs only here, on the background tasks that StopAsync awaits
    /// before unmapping: never from a metrics callback, which could race the unmapping.
    /// </summary>
    private void RefreshStatistics()
    {
        if (_filter.ComputeStatistics() is { } statistics)
        {
            _metrics.Statistics = statistics;
            Telemetry.Log.Statistics(_logger, statistics.FillRatio, statistics.EstimatedNames, statistics.EstimatedFalsePositiveRate, statistics.AllOnesLines);
        }
    }
}
