using EventLog.Segments;

namespace EventLog.Index;

/// <summary>
/// Lookups in one index file. Each costs a binary search of the block keys in memory and one positioned read of one
/// block (at most 128 entries, 3 KiB); a hash collision may read the blocks before it too, and the log tells the
/// colliding streams apart.
/// </summary>
internal sealed partial class IndexFile
{
    private const int BlockBytes = BlockKeys.EntriesPerBlock * IndexEntry.Size;

    /// <summary>The stream's newest event number in this file; null when it has none.</summary>
    public long? LastEventNumber(ulong hash, ReadOnlySpan<byte> utf8Name, LogReader log)
    {
        Span<byte> buffer = stackalloc byte[BlockBytes];
        for (int block = _blocks.LastBlockAtOrBefore(hash, long.MaxValue); block >= 0; block--)
        {
            int count = ReadBlock(block, buffer);
            for (int i = count - 1; i >= 0; i--)
            {
                var entry = IndexEntry.Read(buffer[(i * IndexEntry.Size)..]);
                if (entry.Hash < hash)
                {
                    return null;
                }

                // Newest first, so the first entry that really is this stream's holds its last event number here.
                if (entry.Hash == hash && log.IsStream(entry.Position, utf8Name))
                {
                    return entry.EventNumber;
                }
            }
        }

        return null;
    }

    /// <summary>
    /// Adds every entry keyed (hash, n) with <paramref name="from"/> ≤ n ≤ <paramref name="to"/>. With a hash
    /// collision some belong to another stream; the caller checks each record's name.
    /// </summary>
    public void CollectRange(ulong hash, long from, long to, List<IndexEntry> found)
    {
        Span<byte> buffer = stackalloc byte[BlockBytes];

        // Start in the last block that begins strictly before (hash, from): equal keys (a collision) may straddle blocks.
        for (int block = Math.Max(0, _blocks.LastBlockAtOrBefore(hash, from - 1)); block < _blocks.Count; block++)
        {
            int count = ReadBlock(block, buffer);
            for (int i = 0; i < count; i++)
            {
                var entry = IndexEntry.Read(buffer[(i * IndexEntry.Size)..]);
                if (IndexEntry.CompareKey(entry.Hash, entry.EventNumber, hash, to) > 0)
                {
                    return;
                }

                if (entry.Hash == hash && entry.EventNumber >= from)
                {
                    found.Add(entry);
                }
            }
        }
    }

    /// <summary>Every entry in order, read in large chunks: the input of a merge.</summary>
    public IEnumerable<IndexEntry> ReadAll()
    {
        byte[] buffer = new byte[ScanEntries * IndexEntry.Size];
        for (long index = 0; index < Header.EntryCount;)
        {
            int count = (int)Math.Min(ScanEntries, Header.EntryCount - index);
            ReadExactly(_handle, buffer.AsSpan(0, count * IndexEntry.Size), IndexFileHeader.Size + (index * IndexEntry.Size), Path);
            for (int i = 0; i < count; i++)
            {
                yield return IndexEntry.Read(buffer.AsSpan(i * IndexEntry.Size));
            }

            index += count;
        }
    }

    private int ReadBlock(int block, Span<byte> buffer)
    {
        long first = (long)block * BlockKeys.EntriesPerBlock;
        int count = (int)Math.Min(BlockKeys.EntriesPerBlock, Header.EntryCount - first);
        ReadExactly(_handle, buffer[..(count * IndexEntry.Size)], IndexFileHeader.Size + (first * IndexEntry.Size), Path);
        return count;
    }
}
