using System.Diagnostics;
using System.Runtime.ExceptionServices;
using EventFilter.Hosting.Telemetry;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting;

/// <summary>
/// Start and stop, in the order of docs/design.md, section "Host contract": open, catch up in the background,
/// checkpoint on a timer; on stop, cancel and await the background work, take a final checkpoint, dispose.
/// </summary>
internal sealed partial class HostedStreamExistenceFilter : IHostedService, IDisposable
{
    private CancellationTokenSource? _stopping;
    private PeriodicTimer? _timer;
    private Task _background = Task.CompletedTask;
    private volatile Exception? _openFailure;
    private ActivityContext _openSpan; // the catch-up span's parent: one start, one trace
    private volatile bool _stopped;
    private bool _abandoned;
    private bool _disposed;

    /// <summary>
    /// Why opening, catching up or resizing failed; null while all is well. A background failure is read from the
    /// observer, which the core tells before it sets the Failed state: never a Failed state without its reason.
    /// </summary>
    internal Exception? Failure => _openFailure ?? _observer.BackgroundFailure;

    /// <summary>True once stopped: the file is closed and every lookup answers "maybe".</summary>
    internal bool IsStopped => _stopped;

    /// <summary>Opens and verifies the filter; a failure is logged and stops the host. Catch-up then runs in the background.</summary>
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        string path = _filterOptions.FilterPath;
        Telemetry.Log.Starting(_logger, path, _filterOptions.SizeBytes, _options.CheckpointInterval, PositionSourceName);
        // Ended before the background work starts, which would otherwise run as its child.
        using (Activity? span = FilterSpans.Start(FilterSpans.Open, path))
        {
            try
            {
                // Open reads and checks every line of the file: seconds for a large one, so not on the host's thread.
                await Task.Run(_filter.Open, cancellationToken).ConfigureAwait(false);
                _openSpan = span?.Context ?? default;
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

        _stopping = new CancellationTokenSource();

        // Created before StartAsync returns, so that no tick of the TimeProvider can come before the timer exists.
        _timer = new PeriodicTimer(_options.CheckpointInterval, _time);
        Task catchUp = Task.Run(() => RunCatchUpAsync(_stopping.Token), CancellationToken.None);
        Task checkpoints = RunCheckpointsAsync(_timer, _stopping.Token);
        _background = Task.WhenAll(catchUp, checkpoints);
    }

    /// <summary>Cancels and awaits catch-up and the timer, takes the final checkpoint, closes the file.</summary>
    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (_stopping is not null)
        {
            await _stopping.CancelAsync().ConfigureAwait(false);
            try
            {
                // After the cancel, so no rebuild can start that this does not await (TryStartRebuild checks it).
                await Task.WhenAll(_background, RebuildTask).WaitAsync(cancellationToken).ConfigureAwait(false);
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
            if (_stopping is not null)
            {
                if (TryCheckpoint(out long position) is { } error)
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
            _stopping?.Cancel();
            Task.WhenAll(_background, RebuildTask).GetAwaiter().GetResult();
            _stopped = true;
            _filter.Dispose();
        }

        _timer?.Dispose();
        _stopping?.Dispose();
        _metrics.Dispose();
    }
}
