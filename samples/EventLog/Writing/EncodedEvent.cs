using EventLog.Records;

namespace EventLog.Writing;

/// <summary>One event of an append, its type already encoded and checked.</summary>
internal readonly record struct EncodedEvent(byte[] EventType, ReadOnlyMemory<byte> Data, ReadOnlyMemory<byte> Metadata)
{
    /// <summary>Bytes of the log record this event becomes.</summary>
    public long RecordLength(int streamNameLength) => RecordHeader.LengthFor(streamNameLength, EventType.Length, Data.Length, Metadata.Length);
}
