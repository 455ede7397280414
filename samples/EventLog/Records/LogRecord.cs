using EventFilter.Format;
using System.Buffers.Binary;

namespace EventLog.Records;

/// <summary>Encodes and checks whole log records; the layout is on <see cref="RecordHeader"/>.</summary>
internal static class LogRecord
{
    /// <summary>Writes a complete record, checksum included, into <paramref name="destination"/> (exactly its length).</summary>
    public static void Write(
        Span<byte> destination, bool endsAppend, ReadOnlySpan<byte> streamName, ReadOnlySpan<byte> eventType,
        long eventNumber, long createdTicks, ReadOnlySpan<byte> data, ReadOnlySpan<byte> metadata)
    {
        var header = new RecordHeader(
            destination.Length, endsAppend ? RecordHeader.EndsAppend : (byte)0, eventType.Length, streamName.Length,
            eventNumber, createdTicks, data.Length, metadata.Length);
        header.WriteTo(destination);
        streamName.CopyTo(destination[RecordHeader.NameOffset..]);
        eventType.CopyTo(destination[header.EventTypeOffset..]);
        data.CopyTo(destination[header.DataOffset..]);
        metadata.CopyTo(destination[header.MetadataOffset..]);
        int body = destination.Length - sizeof(uint);
        BinaryPrimitives.WriteUInt32LittleEndian(destination[body..], Crc32C.Compute(destination[..body]));
    }

    /// <summary>
    /// Checks the record at the start of <paramref name="buffer"/>. On <see cref="RecordStatus.Valid"/> the header is set;
    /// on <see cref="RecordStatus.Incomplete"/>, <paramref name="needed"/> is how many bytes the record needs (at least the header).
    /// </summary>
    public static RecordStatus Check(ReadOnlySpan<byte> buffer, out RecordHeader header, out int needed)
    {
        header = default;
        needed = RecordHeader.Size;
        if (buffer.Length < RecordHeader.Size)
        {
            return RecordStatus.Incomplete;
        }

        if (RecordHeader.TryRead(buffer) is not { } read)
        {
            return RecordStatus.Invalid;
        }

        needed = read.Length;
        if (buffer.Length < read.Length)
        {
            return RecordStatus.Incomplete;
        }

        int body = read.Length - sizeof(uint);
        if (BinaryPrimitives.ReadUInt32LittleEndian(buffer[body..]) != Crc32C.Compute(buffer[..body]))
        {
            return RecordStatus.Invalid;
        }

        header = read;
        return RecordStatus.Valid;
    }
}
