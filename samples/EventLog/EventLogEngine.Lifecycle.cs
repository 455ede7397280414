using EventFilter;
using EventLog.Writing;

namespace EventLog;

/// <summary>Start (with the engine's own filter or the host's), filter checkpoints, and shutdown.</summary>
public sealed partial class EventLogEngine
{
    private StreamExistenceFilter? _ownFilter;
    private Task _checkpointLoop = Task.CompletedTask;

    /// <summary>The stream-existence filter in front of the index; null when off or before <see cref="Start()"/>.</summary>
    public IStreamExistenceFilter? Filter => _versions.Filter;

    /// <summary>The catch-up of the engine's own filter (completed when there is none); faults if catch-up fails.</summary>
    public Task FilterCatchUp { get; private set; } = Task.CompletedTask;

    /// <summary>The error of the last periodic filter checkpoint; null when it succeeded (or none ran yet).</summary>
    public Exception? FilterCheckpointFailure { get; private set; }

    /// <summary>
    /// Starts taking appends, with the engine's own stream-existence filter of
    /// <see cref="EventLogOptions.StreamExistenceFilterSizeBytes"/> bytes (0: none), kept in <c>filter/</c> under the data
    /// directory. The filter is opened here and caught up from the log in the background; until it is ready it answers
    /// "maybe", and lookups walk the index.
    /// </summary>
    public void Start()
    {
        ClaimStart();
        StreamExistenceFilter? own;
        try
        {
            own = Options.StreamExistenceFilterSizeBytes > 0 ? OpenOwnFilter() : null;
        }
        catch
        {
            Volatile.Write(ref _state, Opened); // nothing started: Start may be retried
            throw;
        }

        StartWith(own);
        if (own is not null)
        {
            FilterCatchUp = Task.Run(() => own.CatchUpAsync(_stopping.Token));
        }
    }

    /// <summary>
    /// Starts taking appends with the host's filter, built over this engine as its <see cref="EventFilter.IStreamNameLog"/>.
    /// The host must have called its <c>Open()</c> already (so no append is missed), runs its catch-up, and disposes it
    /// after <see cref="StopAsync"/>. The engine adds every appended name, checkpoints it at durable positions and tells
    /// it of log truncation.
    /// </summary>
    public void Start(IStreamExistenceFilter filter)
    {
        ArgumentNullException.ThrowIfNull(filter);
        ClaimStart();
        StartWith(filter);
    }

    /// <summary>
    /// Checkpoints the filter at the log's durable end: every name before it was added before its record's fsync.
    /// Returns the position checkpointed. Runs by itself every <see cref="EventLogOptions.FilterCheckpointInterval"/>.
    /// </summary>
    public long CheckpointFilter()
    {
        long end = _segments.DurableEnd;
        Filter?.Checkpoint(end);
        return end;
    }

    /// <summary>
    /// Stops taking appends: commits every append already queued, stops the periodic checkpoints and the engine's own
    /// filter's catch-up, and checkpoints the filter at the durable end. The log stays readable (a host filter's
    /// catch-up may still read it) until <see cref="DisposeAsync"/>. Later appends throw <see cref="Errors.EngineStoppedException"/>.
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
        _stopping.Dispose();
        _directoryLock.Dispose(); // last: another engine may open the directory only once every file is closed
    }

    private async Task StopAppendsAsync()
    {
        if (_writer is not null)
        {
            await _writer.DisposeAsync().ConfigureAwait(false);
        }

        await _stopping.CancelAsync().ConfigureAwait(false);

        // Their failures stay observable on FilterCatchUp and FilterCheckpointFailure; stopping goes on regardless.
        await Task.WhenAll(_checkpointLoop, FilterCatchUp).ContinueWith(_ => { }, TaskScheduler.Default).ConfigureAwait(false);
        if (Filter is not null)
        {
            CheckpointFilter();
        }
    }

    private StreamExistenceFilter OpenOwnFilter()
    {
        var options = new StreamExistenceFilterOptions { DataDirectory = Path.Combine(_root, "filter"), SizeBytes = Options.StreamExistenceFilterSizeBytes };
        var filter = new StreamExistenceFilter(options, this);
        filter.Open();
        _ownFilter = filter;
        return filter;
    }

    private void ClaimStart()
    {
        if (Interlocked.CompareExchange(ref _state, Started, Opened) != Opened)
        {
            throw new InvalidOperationException("Start may be called once, on an engine that is open and not disposed.");
        }
    }

    private void StartWith(IStreamExistenceFilter? filter)
    {
        if (filter is not null && LogRecovery.TruncatedBytes > 0)
        {
            filter.TruncateTo(LogRecovery.End); // a no-op unless a checkpoint claimed the cut tail
        }

        _versions.Filter = filter;
        _writer = new GroupCommitWriter(new RecordBuffer(_segments, Options.SegmentSizeBytes, Options.MaxGroupCommitBytes), _versions, _index, _maintenance, Options);
        if (filter is not null && Options.FilterCheckpointInterval > TimeSpan.Zero)
        {
            _checkpointLoop = CheckpointPeriodicallyAsync(Options.FilterCheckpointInterval, _stopping.Token);
        }
    }

    private async Task CheckpointPeriodicallyAsync(TimeSpan interval, CancellationToken cancellationToken)
    {
        using var timer = new PeriodicTimer(interval);
        while (await timer.WaitForNextTickAsync(cancellationToken).ConfigureAwait(false))
        {
            try
            {
                CheckpointFilter();
                FilterCheckpointFailure = null;
            }
            catch (Exception error)
            {
                // Not fatal to appends: the previous checkpoint still holds, and the next tick tries again.
                FilterCheckpointFailure = error;
            }
        }
    }
}
