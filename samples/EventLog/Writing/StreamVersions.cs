using EventFilter;
using EventLog.Caching;
using EventLog.Index;

namespace EventLog.Writing;

/// <summary>
/// "What is this stream's last event number?": the stream-info cache, then the stream-existence filter (a "definitely
/// not" means a new stream: the index is not touched at all), then the index walk. This is the lookup whose cost
/// EventStoreDB measured falling off a cliff at the first index file, and the place the filter cures it. It only looks
/// the filter up: the caller passes the filter it holds (the writer owns it; readers see it through the engine).
/// </summary>
internal sealed class StreamVersions
{
    private readonly StreamInfoCache _cache;
    private readonly StreamIndex _index;
    private long _filterNegatives;

    public StreamVersions(StreamInfoCache cache, StreamIndex index)
    {
        _cache = cache;
        _index = index;
    }

    /// <summary>Lookups that the filter answered "definitely not", skipping the index.</summary>
    public long FilterNegatives => Interlocked.Read(ref _filterNegatives);

    /// <summary>For the writer, which alone stores what it finds in the cache (see <see cref="StreamInfoCache"/>).</summary>
    public long ForWriter(string streamName, ReadOnlySpan<byte> utf8Name, ulong hash, IStreamExistenceFilter? filter)
    {
        if (_cache.TryGet(streamName, out long cached))
        {
            return cached;
        }

        long found = Lookup(streamName, utf8Name, hash, filter);
        _cache.Set(streamName, found);
        return found;
    }

    /// <summary>For readers: uses the cache, never fills it.</summary>
    public long ForReader(string streamName, ReadOnlySpan<byte> utf8Name, ulong hash, IStreamExistenceFilter? filter) =>
        _cache.TryGet(streamName, out long cached) ? cached : Lookup(streamName, utf8Name, hash, filter);

    /// <summary>Writer only: the stream's last event number is now <paramref name="lastEventNumber"/>.</summary>
    public void Committed(string streamName, long lastEventNumber) => _cache.Set(streamName, lastEventNumber);

    private long Lookup(string streamName, ReadOnlySpan<byte> utf8Name, ulong hash, IStreamExistenceFilter? filter)
    {
        // Until the filter is ready it answers "maybe", and the index walk below gives the answer.
        if (filter is not null && !filter.MightExist(utf8Name))
        {
            Interlocked.Increment(ref _filterNegatives);
            return -1;
        }

        return _index.LastEventNumber(streamName, utf8Name, hash);
    }
}
