using EventFilter.Daemon.Telemetry;
using EventFilter.Durability;
using EventFilter.Storage;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Every named filter of a data directory, one subdirectory each under <c>filters/</c>. A create or delete is made
/// durable as --log-sync says: before its reply with <c>always</c>, at the next sync tick (<see cref="SyncDirectories"/>)
/// with <c>periodic</c>. A deleted filter is renamed to a ".deleted" directory at once and its files removed at the next
/// tick; start-up removes such leftovers, and drops the directory of a create that never reached the disk.
/// See docs/daemon.md, "Durability".
/// </summary>
internal sealed class FilterStore : IDisposable
{
    // Guards the map only, so lookups (the hot path) never wait for a create's or delete's file I/O.
    private readonly Lock _gate = new();
    // Serialises creates and deletes with each other, across their file I/O and fsyncs.
    private readonly Lock _controlGate = new();
    private readonly Dictionary<string, NamedFilter> _filters = new(StringComparer.Ordinal);
    private readonly List<string> _deleted = [];
    private readonly string _root;
    private readonly LogSync _logSync;
    private readonly FilterObserver _observer;
    private readonly ILogger _logger;
    private long _deletions;
    private bool _rootChanged;

    public FilterStore(string dataDirectory, LogSync logSync, FilterObserver observer, ILogger logger)
    {
        _root = Path.Combine(dataDirectory, DataLayout.FiltersDirectory);
        _logSync = logSync;
        _observer = observer;
        _logger = logger;
    }

    /// <summary>
    /// Opens every filter (each caught up from its log), clears leftovers of interrupted creates and deletes, and drops
    /// filters whose log header never reached the disk. A header that is there but damaged stops the start.
    /// </summary>
    /// <exception cref="InvalidDataException">A digest log's header has non-zero bytes and fails its checksum.</exception>
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
                if (DigestLog.IsUnwritten(NamedFilter.LogPath(directory)))
                {
                    Log.UnwrittenFilterDropped(_logger, directory);
                    Directory.Delete(directory, recursive: true);
                    _rootChanged = true;
                }
                else
                {
                    _filters[name] = NamedFilter.Open(directory, _observer);
                }
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

    /// <summary>Creates the filter (durably with --log-sync always); returns null when the key already has one.</summary>
    public NamedFilter? Create(ReadOnlySpan<byte> key, FilterParameters parameters)
    {
        string name = KeyNames.DirectoryName(key);
        lock (_controlGate)
        {
            return Find(name) is null ? CreateLocked(name, parameters) : null;
        }
    }

    public NamedFilter FindOrCreate(ReadOnlySpan<byte> key, FilterParameters parameters) =>
        Find(key) ?? CreateOrFind(KeyNames.DirectoryName(key), parameters);

    private NamedFilter CreateOrFind(string name, FilterParameters parameters)
    {
        lock (_controlGate)
        {
            // Another connection may have created it since the lookup.
            return Find(name) ?? CreateLocked(name, parameters);
        }
    }

    public bool Delete(ReadOnlySpan<byte> key)
    {
        lock (_controlGate)
        {
            if (!DeleteLocked(KeyNames.DirectoryName(key)))
            {
                return false;
            }

            RootChanged();
            return true;
        }
    }

    public void DeleteAll()
    {
        lock (_controlGate)
        {
            foreach (string name in Names())
            {
                DeleteLocked(name);
            }

            RootChanged(); // one fsync for them all with --log-sync always
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

    /// <summary>
    /// Once per sync tick, after every filter's checkpoint (which fsyncs a new filter's log and directory): fsyncs
    /// <c>filters/</c> if a create or delete changed it, then removes the files of deleted filters.
    /// </summary>
    public void SyncDirectories()
    {
        bool changed;
        string[] deleted;
        lock (_controlGate)
        {
            // Taken before the fsync: only the renames it covers may have their files removed after it.
            (changed, _rootChanged) = (_rootChanged, false);
            deleted = [.. _deleted];
            _deleted.Clear();
        }

        if (changed)
        {
            // Outside the gate, so creates and drops do not wait for it; one that lands meanwhile marks the next tick.
            try
            {
                DurableDirectory.Sync(_root);
            }
            catch
            {
                lock (_controlGate)
                {
                    _rootChanged = true;
                    _deleted.AddRange(deleted);
                }

                throw;
            }
        }

        // A large filter's files take a while to go, and nothing else refers to them.
        foreach (string directory in deleted)
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>A clean stop: a last checkpoint of every filter, then close; deletes and creates made durable.</summary>
    public void Dispose()
    {
        foreach (NamedFilter filter in Snapshot())
        {
            filter.Close(checkpoint: true);
        }

        SyncDirectories();
    }

    private NamedFilter? Find(string name)
    {
        lock (_gate)
        {
            return _filters.GetValueOrDefault(name);
        }
    }

    private string[] Names()
    {
        lock (_gate)
        {
            return [.. _filters.Keys];
        }
    }

    private NamedFilter CreateLocked(string name, FilterParameters parameters)
    {
        string directory = Path.Combine(_root, name);
        NamedFilter? filter = null;
        try
        {
            filter = NamedFilter.Create(directory, parameters, _observer);
            if (_logSync == LogSync.Always)
            {
                // The log header and its name first, then the filter's name (RootChanged): only then is it acknowledged.
                filter.Checkpoint(final: false);
            }

            RootChanged();
        }
        catch
        {
            // Nothing was acknowledged: leave no half-made filter behind (a start would drop one anyway).
            filter?.Close(checkpoint: false);
            if (Directory.Exists(directory))
            {
                Directory.Delete(directory, recursive: true);
            }

            throw;
        }

        lock (_gate)
        {
            _filters[name] = filter;
        }

        return filter;
    }

    private bool DeleteLocked(string name)
    {
        NamedFilter? filter;
        lock (_gate)
        {
            if (!_filters.Remove(name, out filter))
            {
                return false;
            }
        }

        filter.Close(checkpoint: false);
        // A name of its own, so that a filter deleted again before the last one's files are gone does not collide.
        string deleted = Path.Combine(_root, $"{name}.{++_deletions}{DataLayout.DeletingSuffix}");
        Directory.Move(Path.Combine(_root, name), deleted);
        _deleted.Add(deleted);
        return true;
    }

    /// <summary>A create or delete changed <c>filters/</c>: fsync it now with --log-sync always, else at the next tick.</summary>
    private void RootChanged()
    {
        if (_logSync == LogSync.Always)
        {
            DurableDirectory.Sync(_root);
        }
        else
        {
            _rootChanged = true;
        }
    }
}
