namespace EventFilter.Daemon.Filters;

/// <summary>
/// The first items of a pending filter (created with --log-sync periodic, recorded in the control log, no files yet),
/// held in memory exactly instead of making its directory, log and layer file on the add's path: a set answers
/// lookups, a list keeps the order its log will have. Their digests are recorded in the control log before the reply
/// (<see cref="Record"/>). Used under the filter's add lock, but for <see cref="Record"/> and <see cref="Any"/>. See
/// docs/daemon-design.md, "Durability".
/// </summary>
/// <param name="log">Where held items are recorded; null: the filter holds none (--log-sync always, or a restore).</param>
/// <param name="limit">Most items held before the filter must have files.</param>
internal sealed class HeldItems(ControlLog? log, int limit)
{
    private HashSet<ulong>? _set;
    private List<ulong>? _order;
    // Set by the first item held and never cleared, read by the tick without the filter's lock: a filter whose items
    // may be in the control file a tick leaves reads as having held them, so that tick makes its files before it
    // empties that file.
    private volatile bool _any;

    /// <summary>True once an item was held (it stays true after the items went to the filter's own log).</summary>
    public bool Any => _any;

    public int Count => _order?.Count ?? 0;

    /// <summary>True when one more item may be held: there is a control log to record it in and room below the limit.</summary>
    public bool HasRoom => log is not null && Count < limit;

    /// <summary>The held digests, in the order they were held.</summary>
    public ReadOnlySpan<ulong> Order => System.Runtime.InteropServices.CollectionsMarshal.AsSpan(_order);

    public bool Contains(ulong digest) => _set?.Contains(digest) == true;

    /// <summary>Holds <paramref name="digest"/>; a digest held already is held once.</summary>
    public void Hold(ulong digest)
    {
        if ((_set ??= []).Add(digest))
        {
            (_order ??= []).Add(digest);
            _any = true;
        }
    }

    /// <summary>The items went to the filter's own log: memory is freed (<see cref="Any"/> stays true).</summary>
    public void Release()
    {
        _set = null;
        _order = null;
    }

    /// <summary>
    /// Records the digests of held items of the filter <paramref name="name"/> in the control log, which serialises its
    /// appends with a tick's switch of files under its own lock. Called without the filter's add lock.
    /// </summary>
    public void Record(string name, ReadOnlySpan<ulong> digests) => log!.AppendItems(name, digests);
}
