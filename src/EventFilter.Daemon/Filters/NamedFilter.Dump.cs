using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// A named filter's side of BF.SCANDUMP and BF.LOADCHUNK: the digest log is the filter, so a dump is the log's items up
/// to where it ended when the dump began, and a restore appends them in the same order, each to the layer its index
/// belongs to, so the restored layers hold what the dumped ones did. See docs/daemon.md, "Backup and restore".
/// </summary>
internal sealed partial class NamedFilter
{
    /// <summary>
    /// The items a dump that begins now covers (every add acknowledged so far is in the log, or is written now) and the
    /// last one's digest (0 when there are none); null when the filter was deleted meanwhile.
    /// </summary>
    public (long Items, ulong Last)? DumpStart()
    {
        lock (_gate)
        {
            if (_closed)
            {
                return null;
            }

            if (HeldCount > 0)
            {
                // A dump reads the log: the items a pending filter holds get their files first.
                MaterializeLocked();
                OpenLayersToEnd();
            }

            WriteLogLocked();
            long items = _log?.Records ?? 0;
            Span<ulong> last = stackalloc ulong[1];
            return (items, items > 0 && ReadLocked(items - 1, last) ? last[0] : 0);
        }
    }

    /// <summary>Reads the digests of items [<paramref name="first"/>, first + length) of the log; false when the filter was deleted or holds fewer.</summary>
    public bool ReadItems(long first, Span<ulong> digests)
    {
        lock (_gate)
        {
            return !_closed && ReadLocked(first, digests);
        }
    }

    /// <summary>
    /// Appends items a restore took, in log order: each goes to the layer its index belongs to (a new layer when the
    /// last is full, as the dumped filter grew), then all to the log with one write. No lookup first: the dumped
    /// filter's log holds each item once already. The caller has checked that the parameters allow this many items.
    /// </summary>
    public void AppendRestored(ReadOnlySpan<ulong> digests)
    {
        lock (_gate)
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            MaterializeLocked();
            WriteLogLocked();
            long index = Items;
            for (int done = 0; done < digests.Length;)
            {
                if (_layers.Count == 0 || index >= _layers[^1].Start + _layers[^1].Capacity)
                {
                    OpenLayer(_layers.Count);
                }

                FilterLayer layer = _layers[^1];
                int take = (int)Math.Min(digests.Length - done, layer.Start + layer.Capacity - index);
                layer.File.AddHashes(digests.Slice(done, take));
                done += take;
                index += take;
            }

            _log!.Append(digests);
        }
    }

    private bool ReadLocked(long first, Span<ulong> digests)
    {
        if (_log is null || first < 0 || first + digests.Length > _log.Records)
        {
            return false;
        }

        for (int read = 0; read < digests.Length;)
        {
            int got = _log.Read(DigestLogFormat.PositionOf(first + read), digests[read..]);
            if (got == 0)
            {
                return false;
            }

            read += got;
        }

        return true;
    }
}
