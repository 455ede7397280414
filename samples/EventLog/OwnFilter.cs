using EventFilter;
using EventLog.Writing;

namespace EventLog;

/// <summary>
/// Own-filter mode (<see cref="EventLogEngine.Start()"/>): the stream-existence filter the engine opens in
/// <c>filter/</c> and owns, with its catch-up from the log, its periodic checkpoints at the log's durable end, and its
/// final checkpoint and disposal. The writer holds the filter, its one reference: the writer adds and truncates, and
/// this class reaches the filter through it for the rest. In host mode there is none of this: the host owns its
/// filter's lifecycle, and the engine's writer only adds names and reports truncations (docs/design.md, "Host contract").
/// </summary>
internal sealed class OwnFilter : IDisposable
{
    private readonly GroupCommitWriter _writer;
    private readonly IStreamNameLog _log;
    private readonly TimeProvider _time;
    private readonly CancellationTokenSource _stopping = new();
    private Task _checkpointLoop = Task.CompletedTask;
    private volatile Exception? _checkpointFailure;

    private OwnFilter(GroupCommitWriter writer, IStreamNameLog log, TimeProvider time)
    {
        _writer = writer;
        _log = log;
        _time = time;
    }

    /// <summary>The catch-up from the log (completed until <see cref="Start"/>); faults if catch-up fails.</summary>
    public Task CatchUp { get; private set; } = Task.CompletedTask;

    /// <summary>The error of the last periodic checkpoint; null when it succeeded (or none ran yet).</summary>
    public Exception? CheckpointFailure => _checkpointFailure;

    /// <summary>The filter <see cref="Open"/> made, which the writer was started with.</summary>
    private StreamExistenceFilter Filter => (StreamExistenceFilter)_writer.Filter!;

    /// <summary>
    /// Opens (or creates) the filter in <paramref name="directory"/> over <paramref name="log"/>, for the writer to
    /// hold; nothing runs yet. Then <see cref="Start"/> takes over its lifecycle.
    /// </summary>
    public static StreamExistenceFilter Open(string directory, long sizeBytes, TimeProvider time, IStreamNameLog log)
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

        return filter;
    }

    /// <summary>
    /// Takes over the filter <paramref name="writer"/> was started with (one <see cref="Open"/> made): starts its
    /// catch-up and, unless <paramref name="checkpointInterval"/> is zero, its periodic checkpoints.
    /// </summary>
    public static OwnFilter Start(GroupCommitWriter writer, IStreamNameLog log, TimeProvider time, TimeSpan checkpointInterval)
    {
        var own = new OwnFilter(writer, log, time);
        own.Run(checkpointInterval);
        return own;
    }

    private void Run(TimeSpan checkpointInterval)
    {
        CatchUp = Task.Run(() => Filter.CatchUpAsync(_stopping.Token));
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
        Filter.Checkpoint(end);
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
        Filter.Dispose();
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
