namespace EventLog.Index;

/// <summary>
/// The first key of every block of <see cref="EntriesPerBlock"/> entries of an index file, kept in memory (16 bytes per
/// 128 entries). A lookup binary-searches these to pick the one block that can hold its key, then reads that block from
/// disk: one positioned read of at most 3 KiB per index file, like the midpoints of EventStoreDB's PTables.
/// </summary>
internal sealed class BlockKeys
{
    /// <summary>Entries per block: 128 × 24 bytes = 3 KiB per read.</summary>
    public const int EntriesPerBlock = 128;

    private readonly ulong[] _hashes;
    private readonly long[] _eventNumbers;

    public BlockKeys(long entryCount)
    {
        int blocks = checked((int)((entryCount + EntriesPerBlock - 1) / EntriesPerBlock));
        _hashes = new ulong[blocks];
        _eventNumbers = new long[blocks];
    }

    /// <summary>Number of blocks.</summary>
    public int Count => _hashes.Length;

    /// <summary>Feed every entry in order, while writing or verifying the file; the first of each block is kept.</summary>
    public void Observe(long entryIndex, IndexEntry entry)
    {
        if (entryIndex % EntriesPerBlock == 0)
        {
            int block = (int)(entryIndex / EntriesPerBlock);
            _hashes[block] = entry.Hash;
            _eventNumbers[block] = entry.EventNumber;
        }
    }

    /// <summary>The last block whose first key is at or before (hash, event number); -1 when every block starts after it.</summary>
    public int LastBlockAtOrBefore(ulong hash, long eventNumber)
    {
        int low = 0, high = _hashes.Length - 1, found = -1;
        while (low <= high)
        {
            int mid = (low + high) >>> 1;
            if (IndexEntry.CompareKey(_hashes[mid], _eventNumbers[mid], hash, eventNumber) <= 0)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }

        return found;
    }
}
