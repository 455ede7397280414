using EventLog.Index;
using EventLog.Streams;

namespace EventLog;

/// <summary>Reading: a stream's last event number, and its events forward. Reads see durable events only.</summary>
public sealed partial class EventLogEngine
{
    /// <summary>
    /// The stream's last durable event number; -1 when it was never written. Cache, then stream-existence filter, then
    /// the index walk (memtables, then every index file newest first, each behind its own filter).
    /// </summary>
    /// <exception cref="Errors.InvalidStreamNameException">The name is not a valid stream name.</exception>
    public long GetLastEventNumber(string streamName)
    {
        byte[] utf8Name = StrictUtf8.EncodeStreamName(streamName);
        return _versions.ForReader(streamName, utf8Name, StreamHash.Of(utf8Name), Filter);
    }

    /// <summary>
    /// Up to <paramref name="maxCount"/> events of the stream from event number <paramref name="fromEventNumber"/>, in
    /// order (the server's <c>GET /streams/{stream}?from=N&amp;count=M</c>). The index maps (stream hash, event number)
    /// to log positions; each record read is checked against the stream's name, which settles hash collisions.
    /// </summary>
    /// <exception cref="Errors.InvalidStreamNameException">The name is not a valid stream name.</exception>
    /// <exception cref="ArgumentOutOfRangeException">A negative start, or a count outside 1 to <see cref="EventLimits.MaxReadCount"/>.</exception>
    public StreamSlice ReadStreamForward(string streamName, long fromEventNumber, int maxCount)
    {
        byte[] utf8Name = StrictUtf8.EncodeStreamName(streamName);
        ArgumentOutOfRangeException.ThrowIfNegative(fromEventNumber);
        if (maxCount is < 1 or > EventLimits.MaxReadCount)
        {
            throw new ArgumentOutOfRangeException(nameof(maxCount), maxCount, $"maxCount must be between 1 and {EventLimits.MaxReadCount}; got {maxCount}.");
        }

        ulong hash = StreamHash.Of(utf8Name);
        long last = _versions.ForReader(streamName, utf8Name, hash, Filter);
        if (last < 0 || fromEventNumber > last)
        {
            return new StreamSlice(streamName, fromEventNumber, [], last);
        }

        long to = Math.Min(last, fromEventNumber + maxCount - 1);
        List<RecordedEvent> events = ReadRange(streamName, hash, fromEventNumber, to, stopWhenCovered: true)
            ?? ReadRange(streamName, hash, fromEventNumber, to, stopWhenCovered: false)
            ?? throw new InvalidOperationException($"The index has no entry for an event of stream '{streamName}' between {fromEventNumber} and {to}, below its last event {last}.");
        return new StreamSlice(streamName, fromEventNumber, events, last);
    }

    // Null when some event number has no candidate whose record is this stream's (see StreamIndex.Candidates).
    private List<RecordedEvent>? ReadRange(string streamName, ulong hash, long from, long to, bool stopWhenCovered)
    {
        List<IndexEntry> candidates = [.. _index.Candidates(streamName, hash, from, to, stopWhenCovered).OrderBy(c => c.EventNumber)];
        var events = new List<RecordedEvent>((int)(to - from + 1));
        int next = 0;
        for (long number = from; number <= to; number++)
        {
            RecordedEvent? found = null;
            for (; next < candidates.Count && candidates[next].EventNumber <= number; next++)
            {
                if (found is null && candidates[next].EventNumber == number)
                {
                    RecordedEvent read = _reader.ReadEvent(candidates[next].Position);
                    found = string.Equals(read.StreamName, streamName, StringComparison.Ordinal) ? read : null;
                }
            }

            if (found is null)
            {
                return null;
            }

            events.Add(found);
        }

        return events;
    }
}
