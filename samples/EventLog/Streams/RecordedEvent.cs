namespace EventLog.Streams;

/// <summary>An event as the log holds it.</summary>
/// <param name="StreamName">The stream it belongs to.</param>
/// <param name="EventNumber">Its number in the stream, from 0.</param>
/// <param name="EventType">What happened.</param>
/// <param name="Data">The event's body.</param>
/// <param name="Metadata">Bytes about the event; empty when none were given.</param>
/// <param name="Created">When the engine wrote it (UTC).</param>
/// <param name="LogPosition">Its global byte offset in the log.</param>
public sealed record RecordedEvent(
    string StreamName,
    long EventNumber,
    string EventType,
    ReadOnlyMemory<byte> Data,
    ReadOnlyMemory<byte> Metadata,
    DateTime Created,
    long LogPosition);
