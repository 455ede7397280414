using System.Buffers.Binary;
using EventFilter.Format;

namespace EventFilter.Journal;

/// <summary>
/// One 68-byte journal record: a changed line (its index and all 60 bytes of its bits, not just the new ones, so
/// replaying is an idempotent OR), or a commit that ends a flush and may carry a checkpoint position.
/// The checksum is CRC-32C over the header's checksum and bytes 4-67, so a record copied from another journal, or a
/// run of zeros, never checks. See docs/file-format.md, section "Journal files".
/// </summary>
internal static class JournalRecord
{
    public const int Length = 4 + 4 + FilterGeometry.BitBytesPerLine;

    /// <summary>The line index that marks a commit record (a real index is below 2^32 - 1).</summary>
    public const uint CommitMarker = uint.MaxValue;

    /// <summary>The position a commit carries when the flush was not a checkpoint.</summary>
    public const long NoPosition = -1;

    public static void WriteLine(Span<byte> record, uint salt, uint lineIndex, ReadOnlySpan<byte> bits)
    {
        BinaryPrimitives.WriteUInt32LittleEndian(record[4..], lineIndex);
        bits[..FilterGeometry.BitBytesPerLine].CopyTo(record[8..]);
        Seal(record, salt);
    }

    public static void WriteCommit(Span<byte> record, uint salt, long position, long recordsBefore)
    {
        record[..Length].Clear();
        BinaryPrimitives.WriteUInt32LittleEndian(record[4..], CommitMarker);
        BinaryPrimitives.WriteInt64LittleEndian(record[8..], position);
        BinaryPrimitives.WriteInt64LittleEndian(record[16..], recordsBefore);
        Seal(record, salt);
    }

    public static bool IsSealed(ReadOnlySpan<byte> record, uint salt) =>
        BinaryPrimitives.ReadUInt32LittleEndian(record) == Checksum(record, salt);

    public static uint LineIndex(ReadOnlySpan<byte> record) => BinaryPrimitives.ReadUInt32LittleEndian(record[4..]);

    public static ReadOnlySpan<byte> Bits(ReadOnlySpan<byte> record) => record.Slice(8, FilterGeometry.BitBytesPerLine);

    public static long CommitPosition(ReadOnlySpan<byte> record) => BinaryPrimitives.ReadInt64LittleEndian(record[8..]);

    public static long CommitRecordsBefore(ReadOnlySpan<byte> record) => BinaryPrimitives.ReadInt64LittleEndian(record[16..]);

    private static void Seal(Span<byte> record, uint salt) => BinaryPrimitives.WriteUInt32LittleEndian(record, Checksum(record, salt));

    private static uint Checksum(ReadOnlySpan<byte> record, uint salt)
    {
        Span<byte> saltBytes = stackalloc byte[4];
        BinaryPrimitives.WriteUInt32LittleEndian(saltBytes, salt);
        return Crc32C.Finish(Crc32C.Append(Crc32C.Append(Crc32C.Seed, saltBytes), record[4..Length]));
    }
}
