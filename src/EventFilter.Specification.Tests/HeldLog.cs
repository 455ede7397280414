namespace EventFilter.Specification;

/// <summary>
/// The host's log as the kit's filter sees it, with a gate: while held, records made durable after the hold stay
/// invisible to the filter (its end stops at the hold, reads stop there), exactly as if their fsync had not returned
/// yet. That is the race a resize must survive: an add that came before the new file was published, whose record
/// becomes durable only after the new file's catch-up has read the log's end. It also watches the end for log rule 1:
/// an end that goes back with no truncation the host told the filter of. A following filter wakes on the host log's
/// own signal, if it has one, as it would without the kit between them.
/// </summary>
internal sealed class HeldLog(IStreamNameLog log) : IStreamNameLog, IStreamNameLogSignal
{
    private readonly Lock _watch = new();
    private long _heldAt = long.MaxValue;
    private long _highestEnd;
    private (long From, long To)? _wentBack;
    private TaskCompletionSource? _nextEndRead;

    public long EndPosition
    {
        get
        {
            long end = log.EndPosition;
            Watch(end);
            Interlocked.Exchange(ref _nextEndRead, null)?.TrySetResult();
            return Math.Min(end, Volatile.Read(ref _heldAt));
        }
    }

    /// <summary>The first time the end went back with no truncation (yet) to explain it; null while it never did.</summary>
    public (long From, long To)? WentBack
    {
        get
        {
            lock (_watch)
            {
                return _wentBack;
            }
        }
    }

    /// <summary>Holds the filter's view of the log at its durable end now; returns that end.</summary>
    public long Hold()
    {
        long end = log.EndPosition;
        Volatile.Write(ref _heldAt, end);
        return end;
    }

    public void Release() => Volatile.Write(ref _heldAt, long.MaxValue);

    /// <summary>Completes at the next read of <see cref="EndPosition"/> after this call.</summary>
    public Task NextEndRead()
    {
        var next = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Interlocked.Exchange(ref _nextEndRead, next)?.TrySetResult();
        return next.Task;
    }

    /// <summary>The host told the filter its log was cut at <paramref name="position"/>: the end may go back to there.</summary>
    public void Truncated(long position)
    {
        lock (_watch)
        {
            _highestEnd = Math.Min(_highestEnd, position);

            // An end read between the host's cut and its TruncateTo is the cut, not a fault.
            if (_wentBack is { To: var to } && to >= position)
            {
                _wentBack = null;
            }
        }
    }

    public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long heldAt = Volatile.Read(ref _heldAt);
        if (heldAt == long.MaxValue)
        {
            await log.ReadAsync(fromPosition, batch, cancellationToken).ConfigureAwait(false);
            return;
        }

        // Held: one record at a time, so that nothing past the hold is handed on.
        long position = fromPosition;
        while (!batch.IsFull)
        {
            var one = new StreamNameBatch(maxRecords: 1, nameBytes: 1024) { NextPosition = position };
            await log.ReadAsync(position, one, cancellationToken).ConfigureAwait(false);
            if (one.NextPosition <= position || one.NextPosition > heldAt || !batch.TryAdd(one.Names))
            {
                break;
            }

            position = one.NextPosition;
        }

        batch.NextPosition = position;
    }

    /// <summary>
    /// The host log's signal while nothing is held. While held, or for a log without one, it never fires (until
    /// cancelled) and the follower's poll wakes it: a signal of records the hold hides would wake it over and over.
    /// </summary>
    public ValueTask WaitForAppendAsync(long endPosition, CancellationToken cancellationToken) =>
        log is IStreamNameLogSignal signal && Volatile.Read(ref _heldAt) == long.MaxValue
            ? signal.WaitForAppendAsync(endPosition, cancellationToken)
            : new ValueTask(Task.Delay(Timeout.InfiniteTimeSpan, cancellationToken));

    private void Watch(long end)
    {
        lock (_watch)
        {
            if (end < _highestEnd)
            {
                _wentBack ??= (_highestEnd, end);
                return;
            }

            _highestEnd = end;
        }
    }
}
