using EventFilter.Durability;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Every named filter of a data directory, one subdirectory each under <c>filters/</c>. Creating and deleting are
/// crash-safe: a filter is built in a ".tmp" directory and renamed into place; a deleted one is renamed to
/// ".deleted" before its files go. Start-up removes both kinds of leftovers.
/// </summary>
internal sealed class FilterStore : IDisposable
{
    private readonly Lock _gate = new();
    private readonly Dictionary<string, NamedFilter> _filters = new(StringComparer.Ordinal);
    private readonly string _root;
    private readonly FilterObserver _observer;

    public FilterStore(string dataDirectory, FilterObserver observer)
    {
        _root = Path.Combine(dataDirectory, DataLayout.FiltersDirectory);
        _observer = observer;
    }

    /// <summary>Opens every filter (each caught up from its log) and clears leftovers of interrupted creates and deletes.</summary>
    public void Open()
    {
        Directory.CreateDirectory(_root);
        foreach (string directory in Directory.GetDirectories(_root))
        {
            string name = Path.GetFileName(directory);
            if (DataLayout.IsLeftover(name))
            {
                Directory.Delete(directory, recursive: true);
            }
            else if (KeyNames.TryParse(name, out _))
            {
                _filters[name] = NamedFilter.Open(directory, _observer);
            }
        }
    }

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

    /// <summary>Creates the filter durably; returns null when the key already has one.</summary>
    public NamedFilter? Create(ReadOnlySpan<byte> key, FilterParameters parameters)
    {
        string name = KeyNames.DirectoryName(key);
        lock (_gate)
        {
            return _filters.ContainsKey(name) ? null : CreateLocked(name, parameters);
        }
    }

    public NamedFilter FindOrCreate(ReadOnlySpan<byte> key, FilterParameters parameters) =>
        Find(key) ?? CreateOrFind(KeyNames.DirectoryName(key), parameters);

    private NamedFilter CreateOrFind(string name, FilterParameters parameters)
    {
        lock (_gate)
        {
            // Another connection may have created it since the lookup.
            return _filters.GetValueOrDefault(name) ?? CreateLocked(name, parameters);
        }
    }

    public bool Delete(ReadOnlySpan<byte> key)
    {
        lock (_gate)
        {
            return DeleteLocked(KeyNames.DirectoryName(key));
        }
    }

    public void DeleteAll()
    {
        lock (_gate)
        {
            foreach (string name in _filters.Keys.ToArray())
            {
                DeleteLocked(name);
            }
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

    /// <summary>A clean stop: a last checkpoint of every filter, then close.</summary>
    public void Dispose()
    {
        foreach (NamedFilter filter in Snapshot())
        {
            filter.Close(checkpoint: true);
        }
    }

    private NamedFilter CreateLocked(string name, FilterParameters parameters)
    {
        string final = Path.Combine(_root, name);
        string building = final + DataLayout.CreatingSuffix;
        if (Directory.Exists(building))
        {
            Directory.Delete(building, recursive: true);
        }

        Directory.CreateDirectory(building);
        DigestLog.Create(NamedFilter.LogPath(building), parameters);
        Directory.Move(building, final);
        DurableDirectory.Sync(_root);
        NamedFilter filter = NamedFilter.Open(final, _observer);
        _filters[name] = filter;
        return filter;
    }

    private bool DeleteLocked(string name)
    {
        if (!_filters.Remove(name, out NamedFilter? filter))
        {
            return false;
        }

        filter.Close(checkpoint: false);
        string final = Path.Combine(_root, name);
        string deleted = final + DataLayout.DeletingSuffix;
        Directory.Move(final, deleted);
        DurableDirectory.Sync(_root);
        Directory.Delete(deleted, recursive: true);
        return true;
    }
}
