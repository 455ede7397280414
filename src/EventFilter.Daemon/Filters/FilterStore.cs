using EventFilter.Daemon.Formats;
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
/// files, until its first add; the next sync tick (<see cref="SyncDirectories"/>) makes what changed durable.
/// Deleted filters' files are removed at the next tick; start-up removes such leftovers, drops the directory of a
/// create that never reached the disk, and replays the control log.
/// See docs/daemon.md, "Durability".
/// </summary>
internal sealed partial class FilterStore : IDisposable
{
    // Guards the map only, so lookups (the hot path) never wait for a create's or delete's file I/O.
    private readonly Lock _gate = new();
    // Serialises creates and deletes with each other, across their file I/O and fsyncs.
    private readonly Lock _controlGate = new();
    private readonly Dictionary<string, NamedFilter> _filters = new(StringComparer.Ordinal);
    private readonly List<string> _deleted = [];
    // Filters whose directory and log are not yet durable: pending ones (no files; their create record is carried from
    // control file to control file) and ones whose first add made their files since the last tick.
    private readonly HashSet<NamedFilter> _undurable = [];
    // Held by a tick across its fsyncs: ticks run one at a time, while creates and drops go on beside them.
    private readonly Lock _tickGate = new();
    private readonly string _dataDirectory;
    private readonly string _root;
    private readonly LogSync _logSync;
    private readonly FilterObserver _observer;
    private readonly ILogger _logger;
    private ControlLog? _control;
    private long _deletions;
    private bool _rootChanged;
    // Set when a pending filter's first add made its files: the next tick fsyncs them and filters/.
    private volatile bool _filesMade;

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
        bool newControlLog = DataLayout.ControlLogFiles.Any(file => !File.Exists(Path.Combine(_dataDirectory, file)));
        _control = ControlLog.Open(_dataDirectory, out List<ControlRecord> records);
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
        if (_logSync == LogSync.Always)
        {
            // A start after a periodic run: with always there are no pending filters (and no control records), so
            // each gets its files now, made durable by the tick below.
            foreach (NamedFilter pending in _undurable)
            {
                pending.Materialize();
            }
        }

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
    /// Once per sync tick, after every filter's checkpoint, and at the end of a start: makes the creates and drops
    /// recorded since the last tick durable, then removes deleted filters' files. Under the control lock only the
    /// switch of control files (carrying pending filters' creates over); then, beside new creates and drops, each
    /// filter whose first add made its files gets them fsynced, <c>filters/</c> is fsynced if a directory came or went,
    /// the new control file is fsynced, and the one left is emptied: every record in it is now durable elsewhere.
    /// A pending filter gets no files here: its create record, carried, is its durable form until its first add.
    /// </summary>
    public void SyncDirectories()
    {
        lock (_tickGate)
        {
            NamedFilter[] made;
            string[] deleted;
            bool rootChanged;
            lock (_controlGate)
            {
                // Nothing happened since the last tick: pending filters stay as they are, carried in the active file.
                if (_control is null || (!_control.HasNewRecords && !_filesMade && _deleted.Count == 0 && !_rootChanged))
                {
                    return;
                }

                _filesMade = false;

                made = [.. _undurable.Where(filter => filter.IsMaterialized)];
                _undurable.ExceptWith(made);
                _control.Switch(_undurable.Select(filter => new ControlRecord(ControlAction.Create, filter.Name, filter.Parameters)));
                (rootChanged, _rootChanged) = (_rootChanged || made.Length > 0, false);
                deleted = [.. _deleted];
                _deleted.Clear();
            }

            try
            {
                foreach (NamedFilter filter in made)
                {
                    filter.Checkpoint(final: false); // fsyncs its log and, the first time, its directory
                }

                if (rootChanged)
                {
                    DurableDirectory.Sync(_root);
                }

                _control.SyncActive();
                _control.ResetInactive();
            }
            catch
            {
                // Nothing is lost: what the file left recorded is still in memory, and the next tick carries or redoes it.
                lock (_controlGate)
                {
                    _undurable.UnionWith(made.Where(filter => !filter.IsClosed));
                    _deleted.AddRange(deleted);
                    _rootChanged = true;
                }

                throw;
            }

            // Only now may a deleted filter's files go: the rename that hid them is durable. They take a while for a
            // large filter, and nothing else refers to them.
            foreach (string directory in deleted)
            {
                Directory.Delete(directory, recursive: true);
            }
        }
    }

    /// <summary>A clean stop: the creates and drops made durable, a last checkpoint of every filter, then close.</summary>
    public void Dispose()
    {
        if (_control is null)
        {
            return; // never opened
        }

        AbandonRestores(); // unfinished: nothing of them was acknowledged as a filter
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
            // One record, and no inode allocated on the request path: the filter's files come with its first add.
            _control!.Append(new ControlRecord(ControlAction.Create, name, parameters));
            NamedFilter pending = NamedFilter.CreatePending(directory, parameters, _observer, FilesMade);
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

        if (_logSync == LogSync.Periodic)
        {
            // Recorded before anything changes: a failed write leaves the filter as it was.
            _control!.Append(new ControlRecord(ControlAction.Drop, name, default));
        }

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
        if (records.Count == 0)
        {
            return;
        }

        var last = new Dictionary<string, ControlRecord>(StringComparer.Ordinal);
        foreach (ControlRecord record in records)
        {
            last[record.Name] = record;
        }

        int dropped = 0;

        foreach (ControlRecord record in last.Values)
        {
            if (record.Action == ControlAction.Drop)
            {
                if (_filters.Remove(record.Name, out NamedFilter? filter))
                {
                    filter.Close(checkpoint: false);
                    Directory.Delete(Path.Combine(_root, record.Name), recursive: true);
                    _rootChanged = true;
                    dropped++;
                }
            }
            else if (!_filters.ContainsKey(record.Name))
            {
                NamedFilter pending = NamedFilter.CreatePending(Path.Combine(_root, record.Name), record.Parameters, _observer, FilesMade);
                _filters[record.Name] = pending;
                _undurable.Add(pending);
            }
        }

        // Pending filters carried from a clean stop are counted too: they are the filters that have no directory.
        Log.ControlLogReplayed(_logger, records.Count, _undurable.Count, dropped);
    }

    private void FilesMade() => _filesMade = true;

    /// <summary>With --log-sync always, a create or delete changed <c>filters/</c>: fsync it before the reply.</summary>
    private void RootChanged()
    {
        if (_logSync == LogSync.Always)
        {
            DurableDirectory.Sync(_root);
        }
    }
}
