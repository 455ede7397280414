namespace EventFilter.Daemon.Filters;

/// <summary>
/// A named filter's digests added but not yet written to its log, in add order: a batch of pipelined adds costs one
/// write, made before any of their replies is sent. Two buffers: adds queue into one under the filter's add lock, and
/// a writer, holding the filter's write lock, takes them all at once (<see cref="Take"/>, under both locks) and writes
/// them from the other without the add lock. Both are reused, so the add path allocates nothing once they have grown.
/// See docs/daemon-design.md, "Durability" and "Locks".
/// </summary>
internal sealed class UnwrittenDigests
{
    private ulong[] _queued = new ulong[64];
    private ulong[] _taken = new ulong[64];

    /// <summary>Digests queued and not yet taken (under the add lock).</summary>
    public int Count { get; private set; }

    /// <summary>Digests taken and not yet written (under the write lock): a write that failed leaves them for the next.</summary>
    public int TakenCount { get; private set; }

    /// <summary>The log the taken digests go to; null: they are a pending filter's held items, for the control log.</summary>
    public DigestLog? TakenFor { get; private set; }

    /// <summary>The taken digests, in order.</summary>
    public ReadOnlySpan<ulong> Taken => _taken.AsSpan(0, TakenCount);

    /// <summary>Room for <paramref name="more"/> digests without growing while the caller adds them.</summary>
    public void Reserve(int more)
    {
        if (_queued.Length - Count < more)
        {
            Array.Resize(ref _queued, Math.Max(Count + more, _queued.Length * 2));
        }
    }

    /// <summary>Queues one digest; <see cref="Reserve"/> made room for it.</summary>
    public void Add(ulong digest) => _queued[Count++] = digest;

    /// <summary>Drops the queued digests (a pending filter's, once its held items are in its new log); taken ones stay.</summary>
    public void Clear() => Count = 0;

    /// <summary>Takes every queued digest for <paramref name="log"/> (none may be taken already); under both locks.</summary>
    public void Take(DigestLog? log)
    {
        (_queued, _taken) = (_taken, _queued);
        (TakenCount, Count, TakenFor) = (Count, 0, log);
    }

    /// <summary>The taken digests are written.</summary>
    public void Written() => TakenCount = 0;
}
