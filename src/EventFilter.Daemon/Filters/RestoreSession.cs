using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One key being restored by BF.LOADCHUNK: the dump's header, the filter being filled in a directory of its own, and
/// how far the chunks have come. Chunks are checked against it before anything is written, so a chunk that is refused
/// leaves the restore where it was. When the connection that fed it last goes away, the filter is parked: made durable
/// and closed, so an abandoned restore holds no descriptor, and opened again by the next chunk, from any connection.
/// See docs/daemon.md, "Backup and restore".
/// </summary>
internal sealed class RestoreSession(byte[] key, string holder, DumpHeader header)
{
    /// <summary>Held while a chunk is checked and loaded: one chunk of a key at a time.</summary>
    public Lock Gate { get; } = new();

    /// <summary>The key being restored.</summary>
    public byte[] Key { get; } = key;

    /// <summary>
    /// The restore's own directory (a ".tmp" name, which a start removes), holding <see cref="Directory"/>: the filter
    /// is filled under its key's own name, so that <see cref="NamedFilter.Open"/> can open it again after a park.
    /// </summary>
    public string Holder { get; } = holder;

    /// <summary>Where the filter is filled until its last chunk moves it into place.</summary>
    public string Directory { get; } = Path.Combine(holder, KeyNames.DirectoryName(key));

    public DumpHeader Header { get; } = header;

    /// <summary>The filter being filled; null while parked (<see cref="Park"/>).</summary>
    public NamedFilter? Staged { get; set; }

    /// <summary>The id of the connection that sent the last chunk: its disconnect parks the restore.</summary>
    public long Feeder { get; set; }

    // The layers the filter had when parked: what opening it again takes.
    private int _parkedLayers;

    /// <summary>The chunk expected next; <see cref="DumpHeader.Chunks"/> once all are loaded.</summary>
    public long NextChunk { get; private set; }

    /// <summary>True once the restore was published or abandoned: later chunks for it are refused.</summary>
    public bool IsOver { get; set; }

    /// <summary>When its last chunk came (a <see cref="TimeProvider"/> timestamp): an idle restore is abandoned.</summary>
    public long LastUsed { get; set; }

    public bool IsComplete => NextChunk == Header.Chunks;

    /// <summary>Makes the filter durable and closes it, freeing its descriptors (the caller holds <see cref="Gate"/>).</summary>
    public void Park()
    {
        if (Staged is not { } staged)
        {
            return;
        }

        _parkedLayers = staged.Describe().Layers;
        staged.Close(checkpoint: true);
        Staged = null;
    }

    /// <summary>Opens a parked filter again; nothing to do when it is open.</summary>
    /// <exception cref="DescriptorLimitException">Its files would take the descriptors past the limit: it stays parked.</exception>
    public void Resume(FilterObserver observer)
    {
        if (Staged is not null)
        {
            return;
        }

        using DescriptorClaim claim = DescriptorBudget.Claim("a parked restore", 1 + (DescriptorBudget.DescriptorsPerLayer * _parkedLayers));
        Staged = NamedFilter.Open(Directory, observer, claim);
    }

    // The digest of the last item loaded: the next chunk must say it follows that one.
    private ulong _last;

    /// <summary>
    /// Why the dump's items could not fit a filter of its parameters (a non-scaling filter past its capacity, more
    /// layers than a filter may have, a layer over the size limit); null when they fit.
    /// </summary>
    public static string? CheckFits(DumpHeader header)
    {
        FilterParameters parameters = header.Parameters;
        if (parameters.Capacity <= 0 || !(parameters.ErrorRate is > 0 and < 1) || parameters.Expansion is < 1 or > 32768)
        {
            return "its filter parameters are out of range";
        }

        for (int layer = 0; layer == 0 || parameters.LayerStart(layer) < header.Items; layer++)
        {
            if (layer >= FilterParameters.MaxLayers || (layer > 0 && parameters.NonScaling) || parameters.LayerOptions(layer) is null)
            {
                return $"its {header.Items} items do not fit a filter of its parameters";
            }
        }

        return null;
    }

    /// <summary>
    /// Why <paramref name="items"/>, sent with <paramref name="iterator"/>, is not the next chunk of this dump; null
    /// when it is. <paramref name="repeat"/> is true for the chunk loaded last sent again (a client's retry after a
    /// lost reply): it is acknowledged again and changes nothing.
    /// </summary>
    public string? Check(long iterator, DumpItems items, out bool repeat)
    {
        repeat = false;
        if (items.DumpId != Header.DumpId)
        {
            return "received bad data: the chunk belongs to another dump than the one being restored into this key";
        }

        long expectedIterator = DumpChunkFormat.IteratorOf(Header.Items, items.Chunk + 1);
        if (iterator != expectedIterator)
        {
            return $"received bad data: iterator {iterator} does not go with this chunk, whose iterator is {expectedIterator}";
        }

        if (NextChunk > 0 && items.Chunk == NextChunk - 1)
        {
            repeat = true;
            return null;
        }

        if (items.Chunk != NextChunk)
        {
            return $"chunk out of order: expected chunk {NextChunk + 1} of {Header.Chunks} (iterator {DumpChunkFormat.IteratorOf(Header.Items, NextChunk + 1)}), got chunk {items.Chunk + 1}";
        }

        long first = NextChunk * Header.ChunkItems;
        long count = Math.Min(Header.ChunkItems, Header.Items - first);
        if (items.First != first || items.Digests.Length != count)
        {
            return $"received bad data: the chunk holds items {items.First} to {items.First + items.Digests.Length - 1} where chunk {NextChunk + 1} holds {first} to {first + count - 1}";
        }

        return items.Previous == (first == 0 ? 0 : _last) ? null
            : "received bad data: the chunk does not follow the one loaded before it";
    }

    /// <summary>The chunk <see cref="Check"/> passed was loaded.</summary>
    public void Loaded(DumpItems items)
    {
        _last = items.Digests[^1];
        NextChunk++;
    }
}
