namespace EventLog.Streams;

/// <summary>The answer to a forward read of a stream: up to the count asked for, in event-number order.</summary>
/// <param name="StreamName">The stream read.</param>
/// <param name="FromEventNumber">The first event number asked for.</param>
/// <param name="Events">The events found, consecutive from <paramref name="FromEventNumber"/>.</param>
/// <param name="LastEventNumber">The stream's last durable event number when read; -1 when the stream does not exist.</param>
public sealed record StreamSlice(string StreamName, long FromEventNumber, IReadOnlyList<RecordedEvent> Events, long LastEventNumber)
{
    /// <summary>False when the stream was never written.</summary>
    public bool StreamExists => LastEventNumber >= 0;

    /// <summary>The event number to read from next.</summary>
    public long NextEventNumber => Events.Count > 0 ? Events[^1].EventNumber + 1 : FromEventNumber;

    /// <summary>True when nothing lies beyond this slice (yet).</summary>
    public bool IsEndOfStream => NextEventNumber > LastEventNumber;
}
