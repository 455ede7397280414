namespace EventFilter.Daemon.Filters;

/// <summary>
/// The name-to-filter map: every named filter that exists, by its key's exact bytes, and by its directory name for the
/// control log's records, which name directories. Its lock guards the map only, so lookups (the hot path) never wait
/// for a create's or drop's file I/O; creates and drops are serialised with each other by <see cref="FilterDurability"/>.
/// </summary>
internal sealed class FilterMap
{
    private readonly Lock _gate = new();
    private readonly Dictionary<byte[], NamedFilter> _byKey = new(KeyComparer.Instance);
    private readonly Dictionary<string, NamedFilter> _byName = new(StringComparer.Ordinal);

    public int Count { get { lock (_gate) { return _byKey.Count; } } }

    /// <summary>The filter named <paramref name="key"/>, or null; allocates nothing (lookups are the hot path).</summary>
    public NamedFilter? Find(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return _byKey.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(key, out NamedFilter? filter) ? filter : null;
        }
    }

    /// <summary>The filter whose directory is <paramref name="name"/>, or null.</summary>
    public NamedFilter? FindByName(string name)
    {
        lock (_gate)
        {
            return _byName.GetValueOrDefault(name);
        }
    }

    /// <summary>Adds <paramref name="filter"/> under its key and name; the key has no filter.</summary>
    public void Add(NamedFilter filter)
    {
        lock (_gate)
        {
            _byKey.Add(filter.Key, filter);
            _byName.Add(filter.Name, filter);
        }
    }

    public void Remove(NamedFilter filter)
    {
        lock (_gate)
        {
            _byKey.Remove(filter.Key);
            _byName.Remove(filter.Name);
        }
    }

    public List<byte[]> Keys()
    {
        lock (_gate)
        {
            return [.. _byKey.Keys];
        }
    }

    public NamedFilter[] Snapshot()
    {
        lock (_gate)
        {
            return [.. _byKey.Values];
        }
    }
}
