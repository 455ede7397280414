using EventFilter.Daemon.Formats;
using EventFilter.Daemon.Telemetry;
using EventFilter.Storage;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Every named filter of a data directory, one subdirectory each under <c>filters/</c>: the commands' way in. Lookups go
/// to the name-to-filter map (<see cref="FilterMap"/>); creates and drops to the durability of the --log-sync mode
/// (<see cref="ImmediateDurability"/> or <see cref="ControlLogDurability"/>); restores to <see cref="FilterRestores"/>.
/// Start-up opens every filter, removes leftovers of interrupted creates and drops and the directory of a create that
/// never reached the disk, then lets the durability replay the control log. See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed class FilterStore(string dataDirectory, LogSync logSync, FilterObserver observer, ILogger logger, TimeProvider time) : IDisposable
{
    private readonly FilterMap _map = new();
    private readonly string _root = Path.Combine(dataDirectory, DataLayout.FiltersDirectory);
    private FilterDurability? _durability;
    private FilterRestores? _restores;

    private FilterDurability Durability => _durability ?? throw new InvalidOperationException("the filter store is not open");

    /// <summary>
    /// Opens every filter (each caught up from its log), clears leftovers of interrupted creates and deletes, drops
    /// filters whose log header never reached the disk, then replays the control log and makes the result durable.
    /// A header that is there but damaged stops the start.
    /// </summary>
    /// <exception cref="InvalidDataException">A digest log's or the control log's header has non-zero bytes and fails its checksum.</exception>
    /// <exception cref="StartRefusedException">Descriptors, disk space or permissions fall short: nothing was changed.</exception>
    public void Open()
    {
        // Before anything changes: a start that cannot finish leaves the directory as it found it.
        StartCheck.Run(dataDirectory, _root);
        Directory.CreateDirectory(_root);
        // First: a damaged control log stops the start before anything in filters/ is touched.
        bool newControlLog = DataLayout.ControlLogFiles.Any(file => !File.Exists(Path.Combine(dataDirectory, file)));
        var control = ControlLog.Open(dataDirectory, out List<ControlRecord> records);
        if (newControlLog)
        {
            DurableDirectory.Sync(dataDirectory);
        }

        FilterDurability durability = logSync == LogSync.Always
            ? new ImmediateDurability(_map, _root, observer, control)
            : new ControlLogDurability(_map, _root, observer, control);
        int pending, dropped;
        try
        {
            (pending, dropped) = durability.Start(records, OpenDirectories());
        }
        catch
        {
            // The start stops here: close what it opened, changing nothing more.
            foreach (NamedFilter filter in _map.Snapshot())
            {
                filter.Dispose();
            }

            durability.Dispose();
            throw;
        }

        (_durability, _restores) = (durability, new FilterRestores(_map, _root, observer, durability, time));
        if (records.Count > 0)
        {
            // Pending filters carried from a clean stop are counted too: they are the filters that have no directory.
            Log.ControlLogReplayed(logger, records.Count, pending, dropped);
        }
    }

    public int Count => _map.Count;

    /// <summary>The filter named <paramref name="key"/>, or null; allocates nothing (lookups are the hot path).</summary>
    public NamedFilter? Find(ReadOnlySpan<byte> key) => _map.Find(key);

    /// <summary>Creates the filter (durably with --log-sync always); returns null when the key already has one.</summary>
    public NamedFilter? Create(ReadOnlySpan<byte> key, FilterParameters parameters) => Durability.Create(key, parameters);

    public NamedFilter FindOrCreate(ReadOnlySpan<byte> key, FilterParameters parameters) =>
        _map.Find(key) ?? Durability.FindOrCreate(key, parameters);

    /// <summary>Drops the key's filter, and its unfinished restore (a restore is invisible, so DEL of it answers as for no key).</summary>
    public bool Delete(ReadOnlySpan<byte> key)
    {
        _restores!.Abandon(key);
        return Durability.Drop(key);
    }

    public void DeleteAll()
    {
        _restores!.AbandonAll();
        Durability.DropAll();
    }

    public List<byte[]> Keys() => _map.Keys();

    public NamedFilter[] Snapshot() => _map.Snapshot();

    /// <summary>Once per sync tick, after every filter's checkpoint, and at the end of a start: see <see cref="FilterDurability.Tick"/>.</summary>
    public void SyncDirectories()
    {
        Durability.Tick();
        _restores!.AbandonIdle();
    }

    /// <summary>Starts restoring a dump into <paramref name="key"/> (BF.LOADCHUNK's header chunk); null when it did, else the error's text.</summary>
    public string? BeginRestore(ReadOnlySpan<byte> key, DumpHeader header, long client) => _restores!.Begin(key, header, client);

    /// <summary>Loads the next chunk of the key's restore; the last one publishes the filter.</summary>
    public string? LoadItems(ReadOnlySpan<byte> key, long iterator, DumpItems items, long client) => _restores!.LoadItems(key, iterator, items, client);

    /// <summary>The restores the ended connection <paramref name="client"/> fed last, if any (see <see cref="FilterRestores.Park"/>).</summary>
    public FilterRestores? RestoresFedBy(long client) => _restores is { } restores && restores.Feeds(client) ? restores : null;

    /// <summary>A clean stop: the creates and drops made durable, a last checkpoint of every filter, then close.</summary>
    public void Dispose()
    {
        if (_durability is not { } durability)
        {
            return; // never opened, or closed already (the host disposes the store after a stop that failed)
        }

        _durability = null;
        _restores!.AbandonAll(); // unfinished: nothing of them was acknowledged as a filter
        Exception? failure = null;
        try
        {
            durability.Tick();
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException)
        {
            failure = e; // what the tick did not make durable, the control log still has: the next start redoes it
        }

        // Every filter closed whatever failed, so that its descriptors are free for the rest of the stop.
        foreach (NamedFilter filter in _map.Snapshot())
        {
            try
            {
                filter.Close(checkpoint: true);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                failure ??= e; // its log has every acknowledged add: the next start catches its layers up
                filter.Close(checkpoint: false);
            }
        }

        durability.Dispose();
        if (failure is not null)
        {
            System.Runtime.ExceptionServices.ExceptionDispatchInfo.Throw(failure);
        }
    }

    /// <summary>Opens every filter directory into the map; true when one was removed (filters/ changed).</summary>
    private bool OpenDirectories()
    {
        bool removed = false;
        foreach (string directory in Directory.GetDirectories(_root))
        {
            switch (RecoveryRules.Classify(directory, Path.GetFileName(directory)))
            {
                case FilterDirectoryKind.Leftover:
                    Directory.Delete(directory, recursive: true);
                    break;
                case FilterDirectoryKind.Unwritten:
                    Log.UnwrittenFilterDropped(logger, directory);
                    Directory.Delete(directory, recursive: true);
                    removed = true;
                    break;
                case FilterDirectoryKind.Filter:
                    NamedFilter filter = NamedFilter.Open(directory, observer);
                    if (_map.Find(filter.Key) is { } other)
                    {
                        filter.Dispose();
                        throw new InvalidDataException($"The filters '{directory}' and '{other.Name}' have the same key.");
                    }

                    _map.Add(filter);
                    KillPoints.Reached("start.opened");
                    break;
            }
        }

        return removed;
    }
}
