namespace EventFilter.Daemon.Filters;

/// <summary>
/// A named filter's digests added but not yet written to its log: a batch of pipelined adds costs one write, made
/// before any of their replies is sent. Used under the filter's lock. See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed class UnwrittenDigests
{
    private ulong[] _digests = new ulong[64];

    public int Count { get; private set; }

    /// <summary>Room for <paramref name="more"/> digests without growing while the caller adds them.</summary>
    public void Reserve(int more)
    {
        if (_digests.Length - Count < more)
        {
            Array.Resize(ref _digests, Math.Max(Count + more, _digests.Length * 2));
        }
    }

    /// <summary>Queues one digest; <see cref="Reserve"/> made room for it.</summary>
    public void Add(ulong digest) => _digests[Count++] = digest;

    /// <summary>The queued digests, in order.</summary>
    public ReadOnlySpan<ulong> Queued => _digests.AsSpan(0, Count);

    public void Clear() => Count = 0;

    /// <summary>Appends every queued digest to <paramref name="log"/>, in order, with one write; then none are queued.</summary>
    public void WriteTo(DigestLog log)
    {
        if (Count > 0)
        {
            log.Append(_digests.AsSpan(0, Count));
            Count = 0;
        }
    }
}
