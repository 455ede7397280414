using EventFilter;
using EventFilter.Format;
using EventFilter.Storage;
using Microsoft.Win32.SafeHandles;

namespace EventLog.Index;

/// <summary>Writing a new index file: atomically, so a crash leaves no file or a complete one.</summary>
internal sealed partial class IndexFile
{
    /// <summary>
    /// Writes sorted <paramref name="entries"/> as the file <paramref name="plan"/> describes: its Bloom filter first
    /// (flushed), then the file under a temporary name, fsynced, renamed into place, and the directory fsynced.
    /// </summary>
    public static IndexFile Write(string directory, IndexFilePlan plan, IEnumerable<IndexEntry> entries, PerFileFilters filters)
    {
        string path = PathFor(directory, plan.Id);
        string temporary = path + ".tmp";
        long filterSize = filters.Enabled ? IndexFileFilter.SizeFor(plan.StreamsAtMost, filters.FalsePositiveRate) : 0;
        FilterFile? filter = filters.Enabled ? IndexFileFilter.Create(IndexFileFilter.PathFor(path), filterSize) : null;
        try
        {
            var blocks = new BlockKeys(plan.EntryCount);
            IndexFileHeader header;
            using (var stream = new FileStream(temporary, FileMode.Create, FileAccess.Write, FileShare.None, bufferSize: 1 << 20))
            {
                stream.Write(stackalloc byte[IndexFileHeader.Size]); // the header goes in last, once the counts are known
                header = WriteEntries(stream, entries, plan.EntryCount, blocks, filter) with
                {
                    Level = plan.Level, FromPosition = plan.FromPosition, ToPosition = plan.ToPosition, FilterSizeBytes = filterSize,
                };
                Span<byte> bytes = stackalloc byte[IndexFileHeader.Size];
                header.WriteTo(bytes);
                stream.Position = 0;
                stream.Write(bytes);
                stream.Flush(flushToDisk: true);
            }

            // An index file's filter never changes again: fold, so it lives as one file with no journal beside it.
            filter?.FoldJournal();
            File.Move(temporary, path, overwrite: true);
            DurableDirectory.Sync(directory);
            SafeFileHandle handle = File.OpenHandle(path, FileMode.Open, FileAccess.Read, FileShare.Read | FileShare.Delete);
            return new IndexFile(path, plan.Id, header, handle, blocks, filter);
        }
        catch
        {
            filter?.Dispose();
            File.Delete(temporary);
            IndexFileFilter.Delete(path);
            throw;
        }
    }

    private static IndexFileHeader WriteEntries(Stream stream, IEnumerable<IndexEntry> entries, long entryCount, BlockKeys blocks, FilterFile? filter)
    {
        Span<byte> bytes = stackalloc byte[IndexEntry.Size];
        uint checksum = Crc32C.Seed;
        long written = 0, streams = 0;
        ulong lastHash = 0;
        foreach (IndexEntry entry in entries)
        {
            if (written == entryCount)
            {
                throw new InvalidOperationException($"More than the {entryCount} entries announced.");
            }

            entry.WriteTo(bytes);
            stream.Write(bytes);
            checksum = Crc32C.Append(checksum, bytes);
            blocks.Observe(written, entry);
            if (written == 0 || entry.Hash != lastHash)
            {
                streams++;
                filter?.AddHash(entry.Hash);
            }

            lastHash = entry.Hash;
            written++;
        }

        if (written != entryCount)
        {
            throw new InvalidOperationException($"{written} entries written but {entryCount} were announced.");
        }

        return new IndexFileHeader(0, written, streams, 0, 0, 0, Crc32C.Finish(checksum));
    }
}
