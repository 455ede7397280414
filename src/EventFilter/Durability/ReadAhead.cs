namespace EventFilter.Durability;

/// <summary>
/// The catch-up's reads, with the next batch read on another thread while the current one is added: a host's read is
/// serial (positions follow from the previous read), so on more than one core it would otherwise be the catch-up's
/// serial part (docs/decisions/catch-up-by-region.md). Two batches: the one being added and the one being filled.
/// A batch read ahead is used only if the catch-up asks for the position it was read from, with no truncation since;
/// otherwise it is dropped (its names were never added) and the position is read again. One per catch-up.
/// </summary>
internal sealed class ReadAhead
{
    private readonly IStreamNameLog _log;
    private readonly StreamNameBatch[] _batches;
    private int _current;
    private Task? _pending;
    private long _pendingFrom = -1;

    public ReadAhead(IStreamNameLog log, Func<StreamNameBatch> newBatch, bool enabled)
    {
        _log = log;
        _batches = enabled ? [newBatch(), newBatch()] : [newBatch()];
    }

    /// <summary>
    /// The batch of records from <paramref name="from"/>: the one read ahead from there, or one read now. It stays the
    /// caller's until the next call.
    /// </summary>
    public async ValueTask<StreamNameBatch> ReadAsync(long from, CancellationToken cancellationToken)
    {
        if (_pending is { } pending)
        {
            bool usable = _pendingFrom == from;
            (_pending, _pendingFrom) = (null, -1);
            if (usable)
            {
                await pending.ConfigureAwait(false); // its failure is the catch-up's, as a read of its own would be
                _current = 1 - _current;
                return _batches[_current];
            }

            // Dropped: what it read is not used, and a failure of it (a read past a cut, say) is not the catch-up's.
            await pending.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }

        StreamNameBatch batch = _batches[_current];
        batch.Clear();
        await _log.ReadAsync(from, batch, cancellationToken).ConfigureAwait(false);
        return batch;
    }

    /// <summary>
    /// Starts reading from <paramref name="from"/> (just past the batch in hand) into the other batch, on a pool
    /// thread, when read-ahead is on. The in-memory logs of tests and benchmarks complete their reads synchronously,
    /// so the read must leave this thread to overlap the adds.
    /// </summary>
    public void Start(long from, CancellationToken cancellationToken)
    {
        if (_batches.Length == 1 || _pending is not null)
        {
            return;
        }

        StreamNameBatch next = _batches[1 - _current];
        next.Clear();
        _pendingFrom = from;
        _pending = Task.Run(async () => await _log.ReadAsync(from, next, cancellationToken).ConfigureAwait(false), cancellationToken);
    }

    /// <summary>A truncation: what was read ahead may hold records past the cut, so it is read again.</summary>
    public void Drop() => _pendingFrom = -1;

    /// <summary>Waits for a read still running (its failure included: the catch-up is ending anyway).</summary>
    public async Task StopAsync()
    {
        if (_pending is { } pending)
        {
            (_pending, _pendingFrom) = (null, -1);
            // Nothing was added from it; the catch-up's own outcome is what its caller hears.
            await pending.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }
    }
}
