using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using System.Runtime.ExceptionServices;
using EventFilter.Hosting.Telemetry;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting;

/// <summary>
/// Start and stop, in the order of docs/design.md, section "Host contract": open, then catch-up and checkpoints in the
/// background (<see cref="FilterBackgroundWork"/>); on stop, end the background work, take a final checkpoint,
/// dispose. The state here is the service's life; every field is assigned in this file only.
/// </summary>
internal sealed partial class HostedStreamExistenceFilter : IHostedService, IFilterRebuildControl, IDisposable
{
    private volatile FilterBackgroundWork? _work;
    private volatile Exception? _openFailure;
    private volatile bool _stopped;
    private bool _abandoned;
    private bool _disposed;

    /// <summary>
    /// Why opening, catching up or resizing failed; null while all is well. A background failure is read from the
    /// observer, which the core tells before it sets the Failed state: never a Failed state without its reason.
    /// </summary>
    internal Exception? Failure => _openFailure ?? _observer.BackgroundFailure;

    /// <summary>Why the last checkpoint failed; null once one succeeds again.</summary>
    internal Exception? CheckpointFailure => _work?.CheckpointFailure;

    /// <summary>True once stopped: the file is closed and every lookup answers "maybe".</summary>
    internal bool IsStopped => _stopped;

    private string PositionSourceName => _positionSource is null
        ? $"{nameof(IStreamNameLog)}.{nameof(IStreamNameLog.EndPosition)}"
        : $"{_positionSource.GetType().Name}.{nameof(ICheckpointPositionSource.SafeCheckpointPosition)}";

    /// <summary>
    /// Where a checkpoint may claim to cover the log. Without an <see cref="ICheckpointPositionSource"/>, the log's
    /// durable end: the host must call Add before a record counts in it (docs/configuration.md, "Checkpoint position").
    /// </summary>
    private long SafePosition => _positionSource?.SafeCheckpointPosition ?? _log.EndPosition;

    /// <summary>Opens and verifies the filter; a failure is logged and stops the host. Catch-up then runs in the background.</summary>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        string path = _filterOptions.FilterPath;
        Telemetry.Log.Starting(_logger, path, _filterOptions.SizeBytes, _options.CheckpointInterval, PositionSourceName);
        ActivityContext openSpan;

        // Ended before the background work starts, which would otherwise run as its child.
        using (Activity? span = FilterSpans.Start(FilterSpans.Open, path))
        {
            try
            {
                // Open reads and checks every line of the file: seconds for a large one, so not on the host's thread.
                await Task.Run(_filter.Open, cancellationToken).ConfigureAwait(false);
                openSpan = span?.Context ?? default;
            }
            catch (Exception error) when (error is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
            {
                _openFailure = error;
                _metrics.Files.RecordError(TagValues.Open, error);
                FilterSpans.Fail(span, error);
                Telemetry.Log.OpenFailed(_logger, path, error.Message, error);
                throw;
            }
        }

        if (_filter.State == FilterState.Disabled)
        {
            Telemetry.Log.Disabled(_logger, _options.SizeKey);
            return;
        }

        _work = new FilterBackgroundWork(
            _filter, path, _options.CheckpointInterval, _time, () => SafePosition, openSpan, _observer, _metrics, _logger);
    }

    /// <summary>Ends catch-up, the timer and any rebuild, takes the final checkpoint, closes the file.</summary>
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_work is not null)
        {
            try
            {
                await _work.StopAsync(cancellationToken).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
            {
                // Unmapping while catch-up still reads the mapping would crash the process; the OS closes it at exit.
                _abandoned = true;
                Telemetry.Log.StopTimedOut(_logger, _filterOptions.FilterPath);
                throw;
            }
        }

        try
        {
            // Host contract, step 5: the appenders have stopped (they stop before this service, being registered after it).
            if (_work is not null)
            {
                if (_work.TryCheckpoint(out long position) is { } error)
                {
                    ExceptionDispatchInfo.Throw(error);
                }

                Telemetry.Log.Stopped(_logger, _filterOptions.FilterPath, _filter.CheckpointPosition ?? position);
            }
        }
        finally
        {
            _stopped = true;
            _filter.Dispose();
        }
    }

    /// <inheritdoc/>
    public bool TryStartRebuild([NotNullWhen(false)] out string? refusal)
    {
        if (_filter.State == FilterState.Disabled)
        {
            refusal = "the filter is disabled (size 0)";
            return false;
        }

        if (_work is null || _stopped)
        {
            refusal = "the filter is stopping";
            return false;
        }

        return _work.TryStartRebuild(out refusal);
    }

    /// <summary>Ends background work if the host never stopped this service, then closes the file.</summary>
    public void Dispose()
    {
        if (_disposed)
        {
            return;
        }

        _disposed = true;
        if (!_stopped && !_abandoned)
        {
            // Disposed without a stop (the host failed to start, or was never run): end the background work first.
            _work?.Stop();
            _stopped = true;
            _filter.Dispose();
        }

        _work?.Dispose();
        _metrics.Dispose();
    }
}
