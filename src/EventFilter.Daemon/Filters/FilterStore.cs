using EventFilter.Daemon.Telemetry;
using EventFilter.Durability;
using EventFilter.Storage;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Every named filter of a data directory, one subdirectory each under <c>filters/</c>. A create or delete is made
/// durable as --log-sync says. With <c>always</c>, before its reply: a create makes the filter's directory and log and
/// fsyncs them, a delete renames the directory to ".deleted" and fsyncs <c>filters/</c>. With <c>periodic</c>, a create
/// or delete is one record in the control log (<see cref="ControlLog"/>), and a new filter stays pending, with no
/// files, until its first add or the next sync tick (<see cref="SyncDirectories"/>), which applies the records to
/// <c>filters/</c> durably and resets the log. Deleted filters' files are removed at the next tick; start-up removes
/// such leftovers, drops the directory of a create that never reached the disk, and replays the control log.
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
    // Filters created since the last tick, whose directory and log are not yet durable (pending ones have none yet).
    private readonly List<NamedFilter> _undurable = [];
    private readonly string _dataDirectory;
    private readonly string _root;
    private readonly LogSync _logSync;
    private readonly FilterObserver _observer;
    private readonly ILogger _logger;
    private ControlLog? _control;
    private long _deletions;
    private bool _rootChanged;

    public FilterStore(string dataDirectory, LogSync logSync, FilterObserver observer, ILogger logger)
    {
        _dataDirectory = dataDirectory;
        _root = Path.Combine(dataDirectory, DataLayout.FiltersDirectory);
        _logSync = logSync;
        _observer = observer;
        _logger = logger;
    }

    /// <summary>
    /// Opens every filter (each caught up from its log), clears leftovers of interrupted creates and deletes, drops
    /// filters whose log header never reached the disk, then replays the control log and makes the result durable.
    /// A header that is there but damaged stops the start.
    /// </summary>
    /// <exception cref="InvalidDataException">A digest log's or the control log's header has non-zero bytes and fails its checksum.</exception>
    public void Open()
    {
        Directory.CreateDirectory(_root);
        // First: a damaged control log stops the start before anything in filters/ is touched.
        string controlPath = Path.Combine(_dataDirectory, DataLayout.ControlLogFile);
        bool newControlLog = !File.Exists(controlPath);
        _control = ControlLog.Open(controlPath, out List<ControlRecord> records);
        if (newControlLog)
        {
            DurableDirectory.Sync(_dataDirectory);
        }

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

        Replay(records);
        SyncDirectories();
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
    /// Once per sync tick, after every filter's checkpoint: gives each filter created since the last tick its files (if
    /// no add did) and fsyncs them, fsyncs <c>filters/</c> if a directory came or went, resets the control log, whose
    /// records are then all durable in <c>filters/</c>, and removes the files of deleted filters. Creates and deletes
    /// wait for this (it holds the control lock), and only ticks that follow a create or delete have fsyncs to do.
    /// </summary>
    public void SyncDirectories()
    {
        string[] deleted;
        lock (_controlGate)
        {
            // Newest first, each removed once durable, so that a failure leaves the rest for the next tick.
            for (int i = _undurable.Count - 1; i >= 0; i--)
            {
                _undurable[i].Materialize();
                _undurable[i].Checkpoint(final: false); // fsyncs its log and its directory
                _undurable.RemoveAt(i);
                _rootChanged = true;
            }

            if (_rootChanged)
            {
                DurableDirectory.Sync(_root);
                _rootChanged = false;
            }

            if (_control?.HasRecords == true)
            {
                _control.Reset();
            }

            // Taken after the fsync: only the renames it covers may have their files removed.
            deleted = [.. _deleted];
            _deleted.Clear();
        }

        // A large filter's files take a while to go, and nothing else refers to them.
        foreach (string directory in deleted)
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>A clean stop: pending creates given their files, a last checkpoint of every filter, then close.</summary>
    public void Dispose()
    {
        if (_control is null)
        {
            return; // never opened
        }

        SyncDirectories();
        foreach (NamedFilter filter in Snapshot())
        {
            filter.Close(checkpoint: true);
        }

        _control.Dispose();
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
        if (_logSync == LogSync.Periodic)
        {
            // One write, and no inode allocated on the request path: the filter's files come with its first add or the tick.
            _control!.Append(new ControlRecord(ControlAction.Create, name, parameters));
            NamedFilter pending = NamedFilter.CreatePending(directory, parameters, _observer);
            _undurable.Add(pending);
            lock (_gate)
            {
                _filters[name] = pending;
            }

            return pending;
        }

        NamedFilter? filter = null;
        try
        {
            filter = NamedFilter.Create(directory, parameters, _observer);
            // The log header and its name first, then the filter's name (RootChanged): only then is it acknowledged.
            filter.Checkpoint(final: false);
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
            if (!_filters.TryGetValue(name, out filter))
            {
                return false;
            }
        }

        // Recorded before anything changes: a failed write leaves the filter as it was.
        _control?.Append(new ControlRecord(ControlAction.Drop, name, default));
        lock (_gate)
        {
            _filters.Remove(name);
        }

        _undurable.Remove(filter);
        filter.Close(checkpoint: false);
        if (filter.IsMaterialized)
        {
            // A name of its own, so that a filter deleted again before the last one's files are gone does not collide.
            string deleted = Path.Combine(_root, $"{name}.{++_deletions}{DataLayout.DeletingSuffix}");
            Directory.Move(Path.Combine(_root, name), deleted);
            _deleted.Add(deleted);
            _rootChanged = _logSync == LogSync.Periodic;
        }

        return true;
    }

    /// <summary>
    /// At start: what the control log says of each name, its last record, over what <c>filters/</c> holds. A create
    /// whose directory is missing (or was dropped as unwritten) comes back pending, with the recorded parameters; a
    /// drop removes the directory it finds.
    /// </summary>
    private void Replay(List<ControlRecord> records)
    {
        var last = new Dictionary<string, ControlRecord>(StringComparer.Ordinal);
        foreach (ControlRecord record in records)
        {
            last[record.Name] = record;
        }

        foreach (ControlRecord record in last.Values)
        {
            if (record.Action == ControlAction.Drop)
            {
                if (_filters.Remove(record.Name, out NamedFilter? dropped))
                {
                    dropped.Close(checkpoint: false);
                    Directory.Delete(Path.Combine(_root, record.Name), recursive: true);
                    _rootChanged = true;
                }
            }
            else if (!_filters.ContainsKey(record.Name))
            {
                NamedFilter pending = NamedFilter.CreatePending(Path.Combine(_root, record.Name), record.Parameters, _observer);
                _filters[record.Name] = pending;
                _undurable.Add(pending);
            }
        }
    }

    /// <summary>With --log-sync always, a create or delete changed <c>filters/</c>: fsync it before the reply.</summary>
    private void RootChanged()
    {
        if (_logSync == LogSync.Always)
        {
            DurableDirectory.Sync(_root);
        }
    }
}
