using EventLog.Errors;
using EventLog.Records;
using EventLog.Streams;

namespace EventLog.Segments;

/// <summary>Reads single records at positions the index gives: the collision check of a hash match, and event reads.</summary>
internal sealed class LogReader
{
    private readonly SegmentSet _segments;

    public LogReader(SegmentSet segments) => _segments = segments;

    /// <summary>
    /// True when the record at <paramref name="position"/> belongs to the stream named <paramref name="utf8Name"/>.
    /// The index stores 64-bit hashes of names; two names with one hash are told apart here, by the log.
    /// </summary>
    public bool IsStream(long position, ReadOnlySpan<byte> utf8Name)
    {
        Span<byte> buffer = stackalloc byte[RecordHeader.Size + EventLimits.MaxStreamNameBytes];
        buffer = buffer[..(RecordHeader.Size + utf8Name.Length)];
        int read = _segments.Read(position, buffer, _segments.DurableEnd);
        RecordHeader header = HeaderAt(position, buffer[..read]);
        return header.StreamNameLength == utf8Name.Length && buffer.Slice(RecordHeader.NameOffset, utf8Name.Length).SequenceEqual(utf8Name);
    }

    /// <summary>Reads and checks the whole record at <paramref name="position"/>.</summary>
    public RecordedEvent ReadEvent(long position)
    {
        Span<byte> first = stackalloc byte[RecordHeader.Size];
        RecordHeader header = HeaderAt(position, first[.._segments.Read(position, first, _segments.DurableEnd)]);
        byte[] record = new byte[header.Length];
        int read = _segments.Read(position, record, _segments.DurableEnd);
        if (LogRecord.Check(record.AsSpan(0, read), out header, out _) != RecordStatus.Valid)
        {
            throw new CorruptLogException(_segments.PathOf(position), position, "the record's checksum does not match");
        }

        return new RecordedEvent(
            StrictUtf8.Decode(record.AsSpan(RecordHeader.NameOffset, header.StreamNameLength)),
            header.EventNumber,
            StrictUtf8.Decode(record.AsSpan(header.EventTypeOffset, header.EventTypeLength)),
            record.AsMemory(header.DataOffset, header.DataLength),
            record.AsMemory(header.MetadataOffset, header.MetadataLength),
            new DateTime(header.CreatedTicks, DateTimeKind.Utc),
            position);
    }

    private RecordHeader HeaderAt(long position, ReadOnlySpan<byte> bytes)
    {
        if (bytes.Length < RecordHeader.Size || RecordHeader.TryRead(bytes) is not { } header)
        {
            throw new CorruptLogException(_segments.PathOf(position), position, "the index points at bytes that are not a record header");
        }

        return header;
    }
}
