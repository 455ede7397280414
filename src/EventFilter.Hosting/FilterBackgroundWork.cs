using System.Diagnostics;
using System.Diagnostics.CodeAnalysis;
using EventFilter.Hosting.Telemetry;
using EventFilter.Threading;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting;

/// <summary>
/// What a started filter does in the background: catch-up, then checkpoints and statistics on the
/// <see cref="TimeProvider"/>'s timer, and an operator's online rebuild. It owns the cancellation and every task, so
/// that <see cref="StopAsync"/> can end them all before the file is unmapped.
/// </summary>
internal sealed class FilterBackgroundWork : IDisposable
{
    private readonly StreamExistenceFilter _filter;
    private readonly string _path;
    private readonly Func<long> _safePosition;
    private readonly TelemetryObserver _observer;
    private readonly FilterMetrics _metrics;
    private readonly ILogger _logger;
    private readonly CancellationTokenSource _stopping = new();
    private readonly PeriodicTimer _timer;
    private readonly Task _catchUp;
    private readonly Task _checkpoints;
    private readonly Lock _rebuildGate = new();
    private Task _rebuild = Task.CompletedTask;
    private volatile Exception? _checkpointFailure;

    /// <summary>Starts catch-up on the thread pool and the checkpoint timer; the timer exists before this returns.</summary>
    public FilterBackgroundWork(
        StreamExistenceFilter filter,
        string path,
        TimeSpan checkpointInterval,
        TimeProvider time,
        Func<long> safePosition,
        ActivityContext openSpan,
        TelemetryObserver observer,
        FilterMetrics metrics,
        ILogger logger)
    {
        _filter = filter;
        _path = path;
        _safePosition = safePosition;
        _observer = observer;
        _metrics = metrics;
        _logger = logger;

        // Created before the constructor returns, so that no tick of the TimeProvider can come before the timer exists.
        _timer = new PeriodicTimer(checkpointInterval, time);
        CancellationToken stopping = _stopping.Token;
        _catchUp = Task.Run(() => RunCatchUpAsync(openSpan, stopping), CancellationToken.None);
        // Checkpoints run on a thread of their own that yields to the host's appenders: an fsync's wake-up never
        // preempts an add (docs/design.md, "Background work").
        _checkpoints = BackgroundThreads.Run("eventfilter checkpoints", () => RunCheckpoints(stopping));
    }

    /// <summary>Why the last checkpoint failed; null once one succeeds again.</summary>
    public Exception? CheckpointFailure => _checkpointFailure;

    /// <summary>Completes when every task has ended: catch-up (with any resize), the checkpoint timer and any rebuild.</summary>
    public Task Ended => Task.WhenAll(_catchUp, _checkpoints, RebuildTask);

    /// <summary>What is still running, in an operator's words, for the log line of a stop that timed out.</summary>
    public string Unfinished => string.Join(", ", new[]
    {
        (_catchUp, _filter.State == FilterState.Ready ? "following the log, or a resize" : "catch-up"),
        (_checkpoints, "a checkpoint tick"),
        (RebuildTask, "an online rebuild"),
    }.Where(task => !task.Item1.IsCompleted).Select(task => task.Item2));

    /// <summary>
    /// Cancels everything and waits for it until <paramref name="deadline"/> fires; true if it all ended. The deadline
    /// firing is not an error: the caller goes on without the work. The rebuild is read after the cancel, so none can
    /// start unawaited.
    /// </summary>
    public async Task<bool> StopAsync(CancellationToken deadline)
    {
        await _stopping.CancelAsync().ConfigureAwait(false);
        Task ended = Ended;
        await ended.WaitAsync(deadline).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        if (ended.IsFaulted)
        {
            // Each task reports its own failures and ends normally; a fault here is a bug, not a stop, so it surfaces.
            await ended.ConfigureAwait(false);
        }

        return ended.IsCompleted;
    }

    /// <summary>Cancels and waits, blocking: for a dispose without a stop (the host failed to start, or never ran).</summary>
    public void Stop()
    {
        _stopping.Cancel();
        Ended.GetAwaiter().GetResult();
    }

    /// <summary>
    /// Checkpoints at the safe position. A failure is logged, counted and kept for the health check, and returned
    /// for the caller to rethrow or not.
    /// </summary>
    public Exception? TryCheckpoint(out long position)
    {
        position = -1;
        using Activity? span = FilterSpans.Start(FilterSpans.Checkpoint, _path);
        try
        {
            position = _safePosition();
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
            Log.CheckpointFailed(_logger, _path, position, error.Message, error);
            return error;
        }
    }

    /// <summary>Starts an online rebuild unless one of the reasons in <see cref="Refusal"/> stands.</summary>
    public bool TryStartRebuild([NotNullWhen(false)] out string? refusal)
    {
        lock (_rebuildGate)
        {
            refusal = Refusal();
            if (refusal is not null)
            {
                return false;
            }

            CancellationToken stopping = _stopping.Token;
            Task rebuild = _filter.RebuildAsync(stopping);
            if (rebuild is { IsFaulted: true, Exception.InnerException: InvalidOperationException refused })
            {
                // Claimed meanwhile by the filter's own rebuild or resize: nothing was started.
                refusal = refused.Message;
                return false;
            }

            _rebuild = ObserveRebuildAsync(rebuild, stopping);
            return true;
        }
    }

    public void Dispose()
    {
        _timer.Dispose();
        _stopping.Dispose();
    }

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
        if (_stopping.IsCancellationRequested)
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

    private async Task RunCatchUpAsync(ActivityContext openSpan, CancellationToken stopping)
    {
        try
        {
            // The gauges get a first snapshot at once, and a fresh one when the filter is ready.
            RefreshStatistics();

            // The core reports no start of catch-up, so its span starts here; the observer ends it at CatchUpCompleted.
            _observer.Spans.StartCatchUp(_path, openSpan);
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

    private void RunCheckpoints(CancellationToken stopping)
    {
        // Each tick's checkpoint is a trace of its own, not a child of whatever span was current when the host started.
        Activity.Current = null;
        try
        {
            // This thread is the checkpoints' own, so it may block between ticks.
            while (_timer.WaitForNextTickAsync(stopping).AsTask().GetAwaiter().GetResult())
            {
                // A failed checkpoint is logged and reported by the health check; the next tick tries again.
                _ = TryCheckpoint(out _);
                RefreshStatistics();
            }
        }
        catch (OperationCanceledException) when (stopping.IsCancellationRequested)
        {
            // Stopping: the host's StopAsync takes the final checkpoint.
        }
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

    /// <summary>
    /// Reads every line of the serving file, so it runs only here, on the background tasks that StopAsync awaits
    /// before unmapping: never from a metrics callback, which could race the unmapping.
    /// </summary>
    private void RefreshStatistics()
    {
        if (_filter.ComputeStatistics() is { } statistics)
        {
            _metrics.Statistics = statistics;
            Log.Statistics(_logger, statistics.FillRatio, statistics.EstimatedNames, statistics.EstimatedFalsePositiveRate, statistics.AllOnesLines);
        }
    }
}
