using EventFilter;
using EventFilter.Format;
using Microsoft.Win32.SafeHandles;

namespace EventLog.Index;

/// <summary>Opening an existing index file: every entry is read once, to check it and to build the block keys.</summary>
internal sealed partial class IndexFile
{
    private const int ScanEntries = BlockKeys.EntriesPerBlock * 64;

    /// <summary>
    /// Opens and fully checks an index file: header checksum, length, entry checksum and order. Rebuilds its Bloom
    /// filter in the same pass when that is missing or damaged.
    /// </summary>
    /// <exception cref="CorruptIndexFileException">Any check fails; the caller rebuilds the index from the log.</exception>
    public static IndexFile Open(string path, long id, PerFileFilters filters)
    {
        SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete);
        FilterFile? filter = null;
        try
        {
            IndexFileHeader header = ReadHeader(handle, path);
            bool fill = false;
            if (filters.Enabled)
            {
                long size = header.FilterSizeBytes > 0 ? header.FilterSizeBytes : IndexFileFilter.SizeFor(header.StreamCount, filters.FalsePositiveRate);
                filter = IndexFileFilter.OpenOrCreate(IndexFileFilter.PathFor(path), size, out fill);
            }

            BlockKeys blocks = CheckEntries(handle, path, header, fill ? filter : null);
            if (fill)
            {
                filter!.FoldJournal();
            }

            return new IndexFile(path, id, header, handle, blocks, filter);
        }
        catch
        {
            filter?.Dispose();
            handle.Dispose();
            throw;
        }
    }

    private static IndexFileHeader ReadHeader(SafeFileHandle handle, string path)
    {
        Span<byte> bytes = stackalloc byte[IndexFileHeader.Size];
        int read = RandomAccess.Read(handle, bytes, 0);
        IndexFileHeader header = IndexFileHeader.TryRead(bytes[..read]) ?? throw new CorruptIndexFileException(path, "its header is not valid");
        long length = RandomAccess.GetLength(handle);
        if (length != header.FileLength)
        {
            throw new CorruptIndexFileException(path, $"it is {length} bytes long but its header implies {header.FileLength}");
        }

        return header;
    }

    private static BlockKeys CheckEntries(SafeFileHandle handle, string path, IndexFileHeader header, FilterFile? fill)
    {
        var blocks = new BlockKeys(header.EntryCount);
        byte[] buffer = new byte[ScanEntries * IndexEntry.Size];
        uint checksum = Crc32C.Seed;
        IndexEntry previous = default;
        for (long index = 0; index < header.EntryCount;)
        {
            int count = (int)Math.Min(ScanEntries, header.EntryCount - index);
            Span<byte> chunk = buffer.AsSpan(0, count * IndexEntry.Size);
            ReadExactly(handle, chunk, IndexFileHeader.Size + (index * IndexEntry.Size), path);
            checksum = Crc32C.Append(checksum, chunk);
            for (int i = 0; i < count; i++, index++)
            {
                var entry = IndexEntry.Read(chunk[(i * IndexEntry.Size)..]);
                if (index > 0 && entry.CompareTo(previous) < 0)
                {
                    throw new CorruptIndexFileException(path, $"entry {index} is out of order");
                }

                if (index == 0 || entry.Hash != previous.Hash)
                {
                    fill?.AddHash(entry.Hash);
                }

                blocks.Observe(index, entry);
                previous = entry;
            }
        }

        if (Crc32C.Finish(checksum) != header.EntriesChecksum)
        {
            throw new CorruptIndexFileException(path, "its entries do not match their checksum");
        }

        return blocks;
    }

    private static void ReadExactly(SafeFileHandle handle, Span<byte> buffer, long offset, string path)
    {
        for (int total = 0; total < buffer.Length;)
        {
            int read = RandomAccess.Read(handle, buffer[total..], offset + total);
            if (read == 0)
            {
                throw new CorruptIndexFileException(path, $"it ends before byte {offset + buffer.Length}");
            }

            total += read;
        }
    }
}
