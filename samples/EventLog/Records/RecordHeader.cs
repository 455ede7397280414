using System.Buffers.Binary;

namespace EventLog.Records;

/// <summary>
/// The fixed 32 bytes at the start of every log record (all little-endian), followed by the stream name, the event type,
/// the data and the metadata, and closed by a CRC-32C of everything before it. See samples/EventLog/README.md, "Log records".
/// <code>
///  0 u32 record length L (header to checksum inclusive)    16 i64 created, UTC ticks
///  4 u8  flags (bit 0: last record of its append)           24 u32 data length
///  5 u8  event type length                                  28 u32 metadata length
///  6 u16 stream name length                                 32 name, type, data, metadata
///  8 i64 event number                                     L-4 u32 CRC-32C of bytes [0, L-4)
/// </code>
/// </summary>
internal readonly record struct RecordHeader(
    int Length, byte Flags, int EventTypeLength, int StreamNameLength, long EventNumber, long CreatedTicks, int DataLength, int MetadataLength)
{
    /// <summary>Bytes of the fixed header.</summary>
    public const int Size = 32;

    /// <summary>Header plus checksum: the bytes a record costs beyond its payload.</summary>
    public const int Overhead = Size + sizeof(uint);

    /// <summary>Flag: this record completes its append; recovery never keeps part of an append.</summary>
    public const byte EndsAppend = 1;

    /// <summary>True when this record is the last of its append.</summary>
    public bool IsLastOfAppend => (Flags & EndsAppend) != 0;

    /// <summary>Offset of the stream name within the record.</summary>
    public static int NameOffset => Size;

    /// <summary>Offset of the event type.</summary>
    public int EventTypeOffset => Size + StreamNameLength;

    /// <summary>Offset of the data.</summary>
    public int DataOffset => EventTypeOffset + EventTypeLength;

    /// <summary>Offset of the metadata.</summary>
    public int MetadataOffset => DataOffset + DataLength;

    /// <summary>The record length these parts add up to.</summary>
    public static long LengthFor(int nameLength, int typeLength, long dataLength, long metadataLength) =>
        Overhead + (long)nameLength + typeLength + dataLength + metadataLength;

    /// <summary>Writes the header into the first <see cref="Size"/> bytes of <paramref name="record"/>.</summary>
    public void WriteTo(Span<byte> record)
    {
        BinaryPrimitives.WriteInt32LittleEndian(record, Length);
        record[4] = Flags;
        record[5] = (byte)EventTypeLength;
        BinaryPrimitives.WriteUInt16LittleEndian(record[6..], (ushort)StreamNameLength);
        BinaryPrimitives.WriteInt64LittleEndian(record[8..], EventNumber);
        BinaryPrimitives.WriteInt64LittleEndian(record[16..], CreatedTicks);
        BinaryPrimitives.WriteInt32LittleEndian(record[24..], DataLength);
        BinaryPrimitives.WriteInt32LittleEndian(record[28..], MetadataLength);
    }

    /// <summary>Reads a header; null when its lengths do not add up (garbage, a zero-filled tail, or a torn write).</summary>
    public static RecordHeader? TryRead(ReadOnlySpan<byte> bytes)
    {
        var header = new RecordHeader(
            BinaryPrimitives.ReadInt32LittleEndian(bytes),
            bytes[4],
            bytes[5],
            BinaryPrimitives.ReadUInt16LittleEndian(bytes[6..]),
            BinaryPrimitives.ReadInt64LittleEndian(bytes[8..]),
            BinaryPrimitives.ReadInt64LittleEndian(bytes[16..]),
            BinaryPrimitives.ReadInt32LittleEndian(bytes[24..]),
            BinaryPrimitives.ReadInt32LittleEndian(bytes[28..]));
        bool sane = header.StreamNameLength > 0 && header.EventTypeLength > 0 && header.DataLength >= 0 && header.MetadataLength >= 0
            && header.EventNumber >= 0 && (header.Flags & ~EndsAppend) == 0
            && header.Length == LengthFor(header.StreamNameLength, header.EventTypeLength, header.DataLength, header.MetadataLength);
        return sane ? header : null;
    }
}
