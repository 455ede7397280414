namespace EventFilter.Specification;

/// <summary>
/// The host's log as the kit's filter sees it, with a gate: while held, records made durable after the hold stay
/// invisible to the filter (its end stops at the hold, reads stop there), exactly as if their fsync had not returned
/// yet. That is the race a resize must survive: an add that came before the new file was published, whose record
/// becomes durable only after the new file's catch-up has read the log's end.
/// </summary>
internal sealed class HeldLog(IStreamNameLog log) : IStreamNameLog
{
    private long _heldAt = long.MaxValue;

    public long EndPosition => Math.Min(log.EndPosition, Volatile.Read(ref _heldAt));

    /// <summary>Holds the filter's view of the log at its durable end now; returns that end.</summary>
    public long Hold()
    {
        long end = log.EndPosition;
        Volatile.Write(ref _heldAt, end);
        return end;
    }

    public void Release() => Volatile.Write(ref _heldAt, long.MaxValue);

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
}
