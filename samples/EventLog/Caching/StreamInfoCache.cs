namespace EventLog.Caching;

/// <summary>
/// Stream name → last event number, bounded, in front of the index (EventStoreDB keeps such a cache too). Eviction is
/// CLOCK: each hit sets a reference bit, and the hand clears bits until it finds an entry unused since its last pass.
/// Only the writer stores values, so a reader can never put back a number older than a commit it raced with; any
/// thread may read. A short lock guards it: a lookup is a dictionary probe, far cheaper than the index walk it saves.
/// </summary>
internal sealed class StreamInfoCache
{
    private readonly Dictionary<string, int> _slots;
    private readonly string[] _names;
    private readonly long[] _lastEventNumbers;
    private readonly bool[] _referenced;
    private readonly Lock _gate = new();
    private int _hand;
    private long _hits;
    private long _misses;

    /// <summary>Creates a cache of <paramref name="capacity"/> streams; 0 caches nothing.</summary>
    public StreamInfoCache(int capacity)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(capacity);
        _slots = new Dictionary<string, int>(capacity, StringComparer.Ordinal);
        _names = new string[capacity];
        _lastEventNumbers = new long[capacity];
        _referenced = new bool[capacity];
    }

    /// <summary>Lookups answered.</summary>
    public long Hits => Interlocked.Read(ref _hits);

    /// <summary>Lookups not answered.</summary>
    public long Misses => Interlocked.Read(ref _misses);

    /// <summary>The cached last event number (-1: known not to exist); false when not cached.</summary>
    public bool TryGet(string streamName, out long lastEventNumber)
    {
        lock (_gate)
        {
            if (_slots.TryGetValue(streamName, out int slot))
            {
                _referenced[slot] = true;
                lastEventNumber = _lastEventNumbers[slot];
                _hits++;
                return true;
            }

            _misses++;
            lastEventNumber = 0;
            return false;
        }
    }

    /// <summary>Writer only: stores the stream's last event number, evicting a cold entry when full.</summary>
    public void Set(string streamName, long lastEventNumber)
    {
        if (_names.Length == 0)
        {
            return;
        }

        lock (_gate)
        {
            if (!_slots.TryGetValue(streamName, out int slot))
            {
                slot = _slots.Count < _names.Length ? _slots.Count : Evict();
                _slots[streamName] = slot;
                _names[slot] = streamName;
            }

            _lastEventNumbers[slot] = lastEventNumber;
            _referenced[slot] = true;
        }
    }

    private int Evict()
    {
        while (_referenced[_hand])
        {
            _referenced[_hand] = false;
            _hand = (_hand + 1) % _names.Length;
        }

        int victim = _hand;
        _hand = (_hand + 1) % _names.Length;
        _slots.Remove(_names[victim]);
        return victim;
    }
}
