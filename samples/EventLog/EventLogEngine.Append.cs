using EventLog.Errors;
using EventLog.Streams;
using EventLog.Writing;

namespace EventLog;

/// <summary>Appending: validation up front (a bad input changes nothing), then the group-commit writer.</summary>
public sealed partial class EventLogEngine
{
    /// <summary>
    /// Appends <paramref name="events"/> to the stream if its last event number satisfies <paramref name="expectedVersion"/>.
    /// The task completes once the events are durable (written and fsynced with their group commit); all of them are
    /// written, or none. The data and metadata buffers must not change until it completes.
    /// </summary>
    /// <exception cref="InvalidStreamNameException">The name is empty, over 1,000 UTF-8 bytes, or not valid Unicode.</exception>
    /// <exception cref="InvalidEventException">No events, too many, a bad event type, or more bytes than one segment holds.</exception>
    /// <exception cref="WrongExpectedVersionException">(From the task.) The stream's last event number did not match; nothing was written.</exception>
    /// <exception cref="EngineStoppedException">Not started, disposed, or stopped by a write failure; nothing of the append was written.</exception>
    /// <exception cref="AppendOutcomeUnknownException">(From the task.) A write failed and cutting the log back failed too: the append may or may not be in the log after a restart.</exception>
    public Task<AppendResult> AppendAsync(string streamName, ExpectedVersion expectedVersion, IReadOnlyList<EventData> events, CancellationToken cancellationToken = default)
    {
        byte[] utf8Name = StrictUtf8.EncodeStreamName(streamName);
        var pending = new PendingAppend(streamName, utf8Name, expectedVersion, Encode(events), cancellationToken);
        if (pending.RecordBytes > Options.SegmentSizeBytes)
        {
            throw new InvalidEventException(-1, $"its records take {pending.RecordBytes} bytes but a segment holds {Options.SegmentSizeBytes} (SegmentSizeBytes)");
        }

        if (cancellationToken.IsCancellationRequested)
        {
            return Task.FromCanceled<AppendResult>(cancellationToken);
        }

        GroupCommitWriter writer = Volatile.Read(ref _state) == Started && _writer is { } started
            ? started
            : throw new EngineStoppedException(_state == Opened ? "Call Start before appending." : "The event log engine was stopped; it takes no more appends.");
        return writer.AppendAsync(pending);
    }

    /// <summary>Appends one event; see <see cref="AppendAsync(string, ExpectedVersion, IReadOnlyList{EventData}, CancellationToken)"/>.</summary>
    public Task<AppendResult> AppendAsync(string streamName, ExpectedVersion expectedVersion, EventData @event, CancellationToken cancellationToken = default) =>
        AppendAsync(streamName, expectedVersion, [@event], cancellationToken);

    private static EncodedEvent[] Encode(IReadOnlyList<EventData> events)
    {
        ArgumentNullException.ThrowIfNull(events);
        if (events.Count is 0 or > EventLimits.MaxEventsPerAppend)
        {
            throw new InvalidEventException(-1, $"it carries {events.Count} events; an append carries 1 to {EventLimits.MaxEventsPerAppend}");
        }

        var encoded = new EncodedEvent[events.Count];
        for (int i = 0; i < encoded.Length; i++)
        {
            EventData e = events[i] ?? throw new InvalidEventException(i, "it is null");
            encoded[i] = new EncodedEvent(StrictUtf8.EncodeEventType(e.EventType, i), e.Data, e.Metadata);
        }

        return encoded;
    }
}
