using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// The name-to-filter map: every named filter that exists, by its directory name (<see cref="KeyNames"/>). Its lock
/// guards the map only, so lookups (the hot path) never wait for a create's or drop's file I/O; creates and drops are
/// serialised with each other by <see cref="FilterDurability"/>.
/// </summary>
internal sealed class FilterMap
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, NamedFilter> _filters = new(StringComparer.Ordinal);

    public int Count { get { lock (_gate) { return _filters.Count; } } }

    /// <summary>The filter named <paramref name="key"/>, or null; allocates nothing (lookups are the hot path).</summary>
    public NamedFilter? Find(ReadOnlySpan<byte> key)
    {
        if (key.Length > KeyNames.MaxKeyBytes)
        {
            return null;
        }

        Span<char> name = stackalloc char[KeyNames.MaxNameChars];
        int length = KeyNames.WriteDirectoryName(key, name);
        lock (_gate)
        {
            return _filters.GetAlternateLookup<ReadOnlySpan<char>>().TryGetValue(name[..length], out NamedFilter? filter) ? filter : null;
        }
    }

    /// <summary>The filter whose directory is <paramref name="name"/>, or null.</summary>
    public NamedFilter? Find(string name)
    {
        lock (_gate)
        {
            return _filters.GetValueOrDefault(name);
        }
    }

    /// <summary>Adds <paramref name="filter"/> under its name, or replaces the one there.</summary>
    public void Set(NamedFilter filter)
    {
        lock (_gate)
        {
            _filters[filter.Name] = filter;
        }
    }

    public NamedFilter? Remove(string name)
    {
        lock (_gate)
        {
            return _filters.Remove(name, out NamedFilter? filter) ? filter : null;
        }
    }

    public string[] Names()
    {
        lock (_gate)
        {
            return [.. _filters.Keys];
        }
    }

    public List<byte[]> Keys()
    {
        lock (_gate)
        {
            return [.. _filters.Keys.Select(name => KeyNames.TryParse(name, out byte[] key) ? key : [])];
        }
    }

    public NamedFilter[] Snapshot()
    {
        lock (_gate)
        {
            return [.. _filters.Values];
        }
    }
}
