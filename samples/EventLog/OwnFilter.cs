using EventFilter;

namespace EventLog;

/// <summary>
/// Own-filter mode (<see cref="EventLogEngine.Start()"/>): the stream-existence filter the engine opens in
/// <c>filter/</c> and owns, with its catch-up from the log, its periodic checkpoints at the log's durable end, and its
/// final checkpoint and disposal. In host mode there is none of this: the host owns its filter's lifecycle, and the
/// engine's writer only adds names and reports truncations (docs/design.md, "Host contract").
/// </summary>
internal sealed class OwnFilter : IDisposable
{
    private readonly StreamExistenceFilter _filter;
    private readonly IStreamNameLog _log;
    private readonly TimeProvider _time;
    private readonly CancellationTokenSource _stopping = new();
    private Task _checkpointLoop = Task.CompletedTask;
    private volatile Exception? _checkpointFailure;

    private OwnFilter(StreamExistenceFilter filter, IStreamNameLog log, TimeProvider time)
    {
        _filter = filter;
        _log = log;
        _time = time;
    }

    /// <summary>The filter, for the writer's adds and the lookups.</summary>
    public IStreamExistenceFilter Filter => _filter;

    /// <summary>The catch-up from the log (completed until <see cref="Start"/>); faults if catch-up fails.</summary>
    public Task CatchUp { get; private set; } = Task.CompletedTask;

    /// <summary>The error of the last periodic checkpoint; null when it succeeded (or none ran yet).</summary>
    public Exception? CheckpointFailure => _checkpointFailure;

    /// <summary>Opens (or creates) the filter in <paramref name="directory"/> over <paramref name="log"/>; nothing runs yet.</summary>
    public static OwnFilter Open(string directory, long sizeBytes, TimeProvider time, IStreamNameLog log)
    {
        var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = directory, SizeBytes = sizeBytes, TimeProvider = time }, log);
        try
        {
            filter.Open();
        }
        catch
        {
            filter.Dispose();
            throw;
        }

        return new OwnFilter(filter, log, time);
    }

    /// <summary>Starts the catch-up and, unless <paramref name="checkpointInterval"/> is zero, the periodic checkpoints.</summary>
    public void Start(TimeSpan checkpointInterval)
    {
        CatchUp = Task.Run(() => _filter.CatchUpAsync(_stopping.Token));
        if (checkpointInterval > TimeSpan.Zero)
        {
            _checkpointLoop = CheckpointPeriodicallyAsync(checkpointInterval, _stopping.Token);
        }
    }

    /// <summary>
    /// Checkpoints at the log's durable end: every name before it was added before its record's fsync. Returns the
    /// position checkpointed.
    /// </summary>
    public long Checkpoint()
    {
        long end = _log.EndPosition;
        _filter.Checkpoint(end);
        return end;
    }

    /// <summary>After the writer has stopped: stops the catch-up and the checkpoints, then checkpoints once more.</summary>
    public async Task StopAsync()
    {
        await _stopping.CancelAsync().ConfigureAwait(false);

        // Their failures stay observable on CatchUp and CheckpointFailure; stopping goes on regardless.
        await Task.WhenAll(_checkpointLoop, CatchUp).ContinueWith(_ => { }, TaskScheduler.Default).ConfigureAwait(false);
        Checkpoint();
    }

    public void Dispose()
    {
        _filter.Dispose();
        _stopping.Dispose();
    }

    private async Task CheckpointPeriodicallyAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval, _time);
        while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
        {
            try
            {
                Checkpoint();
                _checkpointFailure = null;
            }
            catch (Exception error)
            {
                // Not fatal to appends: the previous checkpoint still holds, and the next tick tries again.
                _checkpointFailure = error;
            }
        }
    }
}
