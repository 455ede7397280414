namespace EventLog.Streams;

/// <summary>
/// One event to append. <paramref name="EventType"/> is 1 to <see cref="EventLimits.MaxEventTypeBytes"/> UTF-8 bytes;
/// data and metadata are opaque bytes. The whole append must fit in one log segment.
/// </summary>
/// <param name="EventType">What happened, e.g. "OrderPlaced".</param>
/// <param name="Data">The event's body.</param>
/// <param name="Metadata">Optional bytes about the event.</param>
public sealed record EventData(string EventType, ReadOnlyMemory<byte> Data, ReadOnlyMemory<byte> Metadata = default);
