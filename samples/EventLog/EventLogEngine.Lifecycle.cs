using EventFilter;
using EventLog.Writing;

namespace EventLog;

/// <summary>Start (with the engine's own filter or the host's), and shutdown.</summary>
public sealed partial class EventLogEngine
{
    private OwnFilter? _ownFilter;

    /// <summary>The stream-existence filter in front of the index; null when off or before <see cref="Start()"/>.</summary>
    public IStreamExistenceFilter? Filter => Volatile.Read(ref _writer)?.Filter;

    /// <summary>The catch-up of the engine's own filter (completed when there is none); faults if catch-up fails.</summary>
    public Task FilterCatchUp => _ownFilter?.CatchUp ?? Task.CompletedTask;

    /// <summary>The error of the own filter's last periodic checkpoint; null when it succeeded (or none ran yet).</summary>
    public Exception? FilterCheckpointFailure => _ownFilter?.CheckpointFailure;

    /// <summary>
    /// Starts taking appends, with the engine's own stream-existence filter of
    /// <see cref="EventLogOptions.StreamExistenceFilterSizeBytes"/> bytes (0: none), kept in <c>filter/</c> under the data
    /// directory. The filter is opened here and caught up from the log in the background; until it is ready it answers
    /// "maybe", and lookups walk the index. The engine checkpoints it and disposes it.
    /// </summary>
    public void Start()
    {
        ClaimStart();
        StreamExistenceFilter? filter;
        try
        {
            filter = Options.StreamExistenceFilterSizeBytes > 0
                ? OwnFilter.Open(Path.Combine(_root, "filter"), Options.StreamExistenceFilterSizeBytes, Options.TimeProvider, this)
                : null;
        }
        catch
        {
            Volatile.Write(ref _state, Opened); // nothing started: Start may be retried
            throw;
        }

        GroupCommitWriter writer = StartWriter(filter);
        if (filter is not null)
        {
            _ownFilter = OwnFilter.Start(writer, this, Options.TimeProvider, Options.FilterCheckpointInterval);
        }
    }

    /// <summary>
    /// Starts taking appends with the host's filter, built over this engine as its <see cref="EventFilter.IStreamNameLog"/>.
    /// The host must have called its <c>Open()</c> already (so no append is missed), runs its catch-up, checkpoints it
    /// (at <see cref="EndPosition"/>, the durable end) and disposes it after <see cref="StopAsync"/>. The engine only
    /// adds every appended name and tells it of log truncation; it never checkpoints it.
    /// </summary>
    public void Start(IStreamExistenceFilter filter)
    {
        ArgumentNullException.ThrowIfNull(filter);
        ClaimStart();
        StartWriter(filter);
    }

    /// <summary>
    /// Checkpoints the engine's own filter at the log's durable end: every name before it was added before its record's
    /// fsync. Returns the position checkpointed. Runs by itself every <see cref="EventLogOptions.FilterCheckpointInterval"/>.
    /// Does nothing when the engine has no filter.
    /// </summary>
    /// <exception cref="InvalidOperationException">The filter is the host's (<see cref="Start(IStreamExistenceFilter)"/>): its host checkpoints it.</exception>
    public long CheckpointFilter()
    {
        if (_ownFilter is { } own)
        {
            return own.Checkpoint();
        }

        return Filter is null
            ? EndPosition
            : throw new InvalidOperationException("The filter was passed to Start(filter): its host checkpoints it, at EndPosition. The engine checkpoints only a filter of its own.");
    }

    /// <summary>
    /// Stops taking appends: commits every append already queued, then stops the engine's own filter's catch-up and
    /// periodic checkpoints and checkpoints it at the durable end (a host's filter is left to its host). The log stays
    /// readable (a host filter's catch-up may still read it) until <see cref="DisposeAsync"/>. Later appends throw
    /// <see cref="Errors.EngineStoppedException"/>.
    /// </summary>
    public async Task StopAsync()
    {
        if (Interlocked.CompareExchange(ref _state, Stopped, Started) == Started)
        {
            await StopAppendsAsync().ConfigureAwait(false);
        }
    }

    /// <summary>
    /// Stops (see <see cref="StopAsync"/>) if still running, writes sealed memtables as index files, and closes every
    /// file, the engine's own filter included (a host's filter is the host's to dispose). Stop reading first.
    /// </summary>
    public async ValueTask DisposeAsync()
    {
        int was = Interlocked.Exchange(ref _state, Disposed);
        if (was == Disposed)
        {
            return;
        }

        if (was == Started)
        {
            await StopAppendsAsync().ConfigureAwait(false);
        }

        _ownFilter?.Dispose();
        await _maintenance.DisposeAsync().ConfigureAwait(false);
        _index.Dispose();
        _segments.Dispose();
        _directoryLock.Dispose(); // last: another engine may open the directory only once every file is closed
    }

    private async Task StopAppendsAsync()
    {
        if (_writer is not null)
        {
            await _writer.DisposeAsync().ConfigureAwait(false);
        }

        if (_ownFilter is { } own)
        {
            await own.StopAsync().ConfigureAwait(false);
        }
    }

    private void ClaimStart()
    {
        if (Interlocked.CompareExchange(ref _state, Started, Opened) != Opened)
        {
            throw new InvalidOperationException("Start may be called once, on an engine that is open and not disposed.");
        }
    }

    private GroupCommitWriter StartWriter(IStreamExistenceFilter? filter)
    {
        var buffer = new RecordBuffer(_segments, Options.SegmentSizeBytes, Options.MaxGroupCommitBytes);
        var writer = new GroupCommitWriter(buffer, filter, LogRecovery, _versions, _index, _maintenance, Options);
        Volatile.Write(ref _writer, writer);
        return writer;
    }
}
