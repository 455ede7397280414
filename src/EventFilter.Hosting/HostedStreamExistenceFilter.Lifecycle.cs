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
    private Task _closed = Task.CompletedTask;
    private bool _disposed;

    /// <summary>
    /// How long the background work still gets to end when StopAsync is called after the host's shutdown timeout has
    /// expired (a service stopped before this one, such as Kestrel waiting for a slow request, used it all). Cancelled,
    /// the work ends within one read of the log or one checkpoint, so this is ample; past it, the stop goes on without
    /// it. On the injected <see cref="TimeProvider"/>. See docs/configuration.md, "Shutdown".
    /// </summary>
    internal static readonly TimeSpan StopGrace = TimeSpan.FromSeconds(1);

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

    /// <summary>
    /// Completes when the file is closed: at once when StopAsync could close it, or when the background work it left
    /// running ends.
    /// </summary>
    internal Task Closed => _closed;

    /// <summary>
    /// Opens and verifies the filter; a failure is logged and stops the host, as a
    /// <see cref="StreamExistenceFilterStartException"/> when its cause is known. Catch-up then runs in the background.
    /// </summary>
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
                var known = StreamExistenceFilterStartException.FromOpenFailure(error, path, Configuration.BindingTrail.Of(_options).KeyOf(nameof(_options.DataDirectory)));
                Telemetry.Log.OpenFailed(_logger, path, known?.Message ?? error.Message);
                Telemetry.Log.OpenFailedDetail(_logger, path, error);
                if (known is not null)
                {
                    throw known;
                }

                throw;
            }
        }

        if (_filter.State == FilterState.Disabled)
        {
            Telemetry.Log.Disabled(_logger, Configuration.BindingTrail.Of(_options).SizeKey);
            return;
        }

        _work = new FilterBackgroundWork(
            _filter, path, _options.CheckpointInterval, _time, () => SafePosition, openSpan, _observer, _metrics, _logger);
    }

    /// <summary>
    /// Ends catch-up, the timer and any rebuild, takes the final checkpoint, closes the file. The host's token firing
    /// is not an error (the .NET convention): the final checkpoint is still taken, since a checkpoint is safe beside
    /// work still running, and only the closing waits for that work. Throws only when the final checkpoint fails.
    /// </summary>
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        FilterBackgroundWork? work = _work;
        using CancellationTokenSource? grace = cancellationToken.IsCancellationRequested ? new CancellationTokenSource(StopGrace, _time) : null;
        bool ended = true;
        try
        {
            if (work is not null)
            {
                ended = await work.StopAsync(grace?.Token ?? cancellationToken).ConfigureAwait(false);

                // Host contract, step 5: the appenders have stopped (they stop before this service, being registered after it).
                Exception? failure = work.TryCheckpoint(out long position);
                if (!ended)
                {
                    Telemetry.Log.StopTimedOut(_logger, _filterOptions.FilterPath, work.Unfinished, _filter.CheckpointPosition);
                }

                if (failure is not null)
                {
                    ExceptionDispatchInfo.Throw(failure);
                }

                if (ended)
                {
                    Telemetry.Log.Stopped(_logger, _filterOptions.FilterPath, _filter.CheckpointPosition ?? position);
                }
            }
        }
        finally
        {
            _stopped = true;
            if (ended)
            {
                _filter.Dispose();
            }
            else
            {
                // Unmapping while the work still reads the mapping would crash the process: the file is closed when
                // the work ends, and if the process exits first, the OS closes it. Nothing here waits for it.
                _closed = work!.Ended.ContinueWith(_ => CloseAfter(work), CancellationToken.None, TaskContinuationOptions.None, TaskScheduler.Default);
            }
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
        if (!_stopped)
        {
            // Disposed without a stop (the host failed to start, or was never run): end the background work first.
            _work?.Stop();
            _stopped = true;
            _filter.Dispose();
        }

        if (_work is null || _work.Ended.IsCompleted)
        {
            // Otherwise a stop left it running, and CloseAfter disposes it when it ends.
            _work?.Dispose();
        }

        _metrics.Dispose();
    }

    private void CloseAfter(FilterBackgroundWork work)
    {
        _filter.Dispose();
        work.Dispose();
    }
}
