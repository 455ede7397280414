using EventFilter.Format;
using System.Buffers.Binary;

namespace EventLog.Index;

/// <summary>
/// The 64-byte header of an index file, little-endian, followed by <see cref="EntryCount"/> sorted 24-byte entries.
/// See samples/EventLog/README.md, "Index files".
/// <code>
///  0 u64 magic "EVLIDX01"       32 i64 first log position covered
///  8 u32 version (1)            40 i64 log position just past the last covered
/// 12 u32 level (0: a flushed memtable; n+1: a merge of level-n files)
/// 16 i64 entry count            48 i64 Bloom filter size in bytes (0: none was built)
/// 24 i64 distinct stream hashes 56 u32 CRC-32C of all entry bytes
///                               60 u32 CRC-32C of header bytes [0, 60)
/// </code>
/// </summary>
internal readonly record struct IndexFileHeader(
    int Level, long EntryCount, long StreamCount, long FromPosition, long ToPosition, long FilterSizeBytes, uint EntriesChecksum)
{
    /// <summary>Bytes of the header.</summary>
    public const int Size = 64;

    private const ulong Magic = 0x3130_5844_494C_5645; // "EVLIDX01" read as little-endian
    private const uint Version = 2; // 2: entries keyed by XXH3-64 (StreamHash); a version 1 index is rebuilt from the log

    /// <summary>The file length this header implies.</summary>
    public long FileLength => Size + (EntryCount * IndexEntry.Size);

    /// <summary>Writes the header, its checksum included.</summary>
    public void WriteTo(Span<byte> destination)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(destination, Magic);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[8..], Version);
        BinaryPrimitives.WriteInt32LittleEndian(destination[12..], Level);
        BinaryPrimitives.WriteInt64LittleEndian(destination[16..], EntryCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[24..], StreamCount);
        BinaryPrimitives.WriteInt64LittleEndian(destination[32..], FromPosition);
        BinaryPrimitives.WriteInt64LittleEndian(destination[40..], ToPosition);
        BinaryPrimitives.WriteInt64LittleEndian(destination[48..], FilterSizeBytes);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[56..], EntriesChecksum);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[60..], Crc32C.Compute(destination[..60]));
    }

    /// <summary>Reads a header; null when the magic, version, checksum or values are wrong.</summary>
    public static IndexFileHeader? TryRead(ReadOnlySpan<byte> source)
    {
        if (source.Length < Size
            || BinaryPrimitives.ReadUInt64LittleEndian(source) != Magic
            || BinaryPrimitives.ReadUInt32LittleEndian(source[8..]) != Version
            || BinaryPrimitives.ReadUInt32LittleEndian(source[60..]) != Crc32C.Compute(source[..60]))
        {
            return null;
        }

        var header = new IndexFileHeader(
            BinaryPrimitives.ReadInt32LittleEndian(source[12..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[16..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[24..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[32..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[40..]),
            BinaryPrimitives.ReadInt64LittleEndian(source[48..]),
            BinaryPrimitives.ReadUInt32LittleEndian(source[56..]));
        bool sane = header.Level >= 0 && header.EntryCount > 0 && header.StreamCount > 0 && header.StreamCount <= header.EntryCount
            && header.FromPosition >= 0 && header.ToPosition > header.FromPosition && header.FilterSizeBytes >= 0;
        return sane ? header : null;
    }
}
