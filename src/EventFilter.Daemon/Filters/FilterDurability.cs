using EventFilter.Daemon.Formats;
using EventFilter.Durability;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Creates and drops of named filters, made durable as --log-sync says: one subclass per mode
/// (<see cref="ImmediateDurability"/> for <c>always</c>, <see cref="ControlLogDurability"/> for <c>periodic</c>). This
/// class serialises creates and drops with each other across their file I/O, hides a dropped filter's directory under
/// a ".deleted" name and removes its files at the next tick, and replays the control log at start.
/// See docs/daemon.md, "Durability".
/// </summary>
internal abstract class FilterDurability(FilterMap map, string root, FilterObserver observer) : IDisposable
{
    // Serialises creates and drops with each other (and a tick's switch of control files), across their file I/O.
    private readonly Lock _changes = new();
    // Directories of dropped filters, hidden under a ".deleted" name: their files go at the next tick.
    private readonly List<string> _dropped = [];
    private long _drops;

    protected FilterMap Map { get; } = map;

    /// <summary>The <c>filters/</c> directory.</summary>
    protected string Root { get; } = root;

    protected FilterObserver Observer { get; } = observer;

    /// <summary>Held by a create or drop, and by a tick for what must not race them.</summary>
    protected Lock Changes => _changes;

    /// <summary>Creates the filter <paramref name="name"/>; null when it exists already.</summary>
    public NamedFilter? Create(string name, FilterParameters parameters)
    {
        lock (_changes)
        {
            return Map.Find(name) is null ? Add(name, parameters) : null;
        }
    }

    /// <summary>The filter <paramref name="name"/>, created if another connection has not made it since the caller looked.</summary>
    public NamedFilter FindOrCreate(string name, FilterParameters parameters)
    {
        lock (_changes)
        {
            return Map.Find(name) ?? Add(name, parameters);
        }
    }

    public bool Drop(string name)
    {
        lock (_changes)
        {
            if (!DropLocked(name))
            {
                return false;
            }

            Dropped();
            return true;
        }
    }

    public void DropAll()
    {
        lock (_changes)
        {
            foreach (string name in Map.Names())
            {
                DropLocked(name);
            }

            Dropped(); // one fsync for them all with --log-sync always
        }
    }

    /// <summary>
    /// Moves a restored filter's durable directory <paramref name="staged"/> into place as <paramref name="name"/>,
    /// fsyncs <c>filters/</c>, records the create as the mode needs, and opens it; null (nothing moved) when the name has
    /// a filter or a directory meanwhile. <paramref name="moved"/> is told once the directory is in place.
    /// </summary>
    public NamedFilter? Publish(string name, string staged, FilterParameters parameters, Action moved)
    {
        lock (_changes)
        {
            string final = Path.Combine(Root, name);
            if (Map.Find(name) is not null || Directory.Exists(final))
            {
                return null;
            }

            Directory.Move(staged, final);
            moved();
            SyncRoot();
            Published(name, parameters);
            NamedFilter filter = NamedFilter.Open(final, Observer);
            Map.Set(filter);
            return filter;
        }
    }

    /// <summary>
    /// At start, after every filter directory is open: applies the control log's records and makes the result durable;
    /// returns how many filters the records left pending and how many directories of dropped filters they removed.
    /// </summary>
    public abstract (int Pending, int Dropped) Start(List<ControlRecord> records, bool rootChanged);

    /// <summary>
    /// Once per sync tick, after every filter's checkpoint, and at a clean stop: makes the creates and drops since the
    /// last tick durable, then removes dropped filters' files.
    /// </summary>
    public abstract void Tick();

    public virtual void Dispose()
    {
    }

    /// <summary>Makes the filter (under <see cref="Changes"/>), durable as the mode promises before the reply.</summary>
    protected abstract NamedFilter Make(string name, FilterParameters parameters);

    /// <summary>Before a drop changes anything: a failure here leaves the filter as it was.</summary>
    protected virtual void DropStarting(string name)
    {
    }

    /// <summary>The drop of <paramref name="filter"/> is done; <paramref name="hidden"/> when it had a directory to rename.</summary>
    protected virtual void DropDone(NamedFilter filter, bool hidden)
    {
    }

    /// <summary>After one or more drops, before the reply.</summary>
    protected virtual void Dropped()
    {
    }

    /// <summary>A restored filter was moved into place and <c>filters/</c> fsynced.</summary>
    protected virtual void Published(string name, FilterParameters parameters)
    {
    }

    /// <summary>The dropped directories so far, now the caller's to remove (or to give back with <see cref="KeepDropped"/>).</summary>
    protected string[] TakeDropped()
    {
        string[] dropped = [.. _dropped];
        _dropped.Clear();
        return dropped;
    }

    protected void KeepDropped(string[] dropped) => _dropped.AddRange(dropped);

    protected bool HasDropped => _dropped.Count > 0;

    /// <summary>fsyncs <c>filters/</c>: the names in it that came or went are durable.</summary>
    protected void SyncRoot() => DurableDirectory.Sync(Root);

    /// <summary>Removes dropped filters' files, once the renames that hid them are durable: off the commands' path.</summary>
    protected static void RemoveFiles(string[] dropped)
    {
        foreach (string directory in dropped)
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>
    /// What the control log says of each name, its last record, over what <c>filters/</c> holds: a create whose
    /// directory is missing (or was dropped as unwritten) comes back pending, with the recorded parameters, and is
    /// returned; a drop removes the directory it finds, counted in <paramref name="dropped"/>.
    /// </summary>
    protected List<NamedFilter> Replay(List<ControlRecord> records, Action? filesMade, ref bool rootChanged, out int dropped)
    {
        List<NamedFilter> pending = [];
        dropped = 0;

        var last = new Dictionary<string, ControlRecord>(StringComparer.Ordinal);
        foreach (ControlRecord record in records)
        {
            last[record.Name] = record;
        }

        foreach (ControlRecord record in last.Values)
        {
            if (record.Action == ControlAction.Drop)
            {
                if (Map.Remove(record.Name) is { } filter)
                {
                    filter.Close(checkpoint: false);
                    Directory.Delete(Path.Combine(Root, record.Name), recursive: true);
                    rootChanged = true;
                    dropped++;
                }
            }
            else if (Map.Find(record.Name) is null)
            {
                NamedFilter filter = NamedFilter.CreatePending(Path.Combine(Root, record.Name), record.Parameters, Observer, filesMade);
                Map.Set(filter);
                pending.Add(filter);
            }
        }

        return pending;
    }

    private NamedFilter Add(string name, FilterParameters parameters)
    {
        NamedFilter filter = Make(name, parameters);
        Map.Set(filter);
        return filter;
    }

    private bool DropLocked(string name)
    {
        if (Map.Find(name) is not { } filter)
        {
            return false;
        }

        DropStarting(name);
        Map.Remove(name);
        filter.Close(checkpoint: false);
        bool hidden = filter.IsMaterialized;
        if (hidden)
        {
            // A name of its own, so that a filter dropped again before the last one's files are gone does not collide.
            string deleted = Path.Combine(Root, $"{name}.{++_drops}{DataLayout.DeletingSuffix}");
            Directory.Move(Path.Combine(Root, name), deleted);
            _dropped.Add(deleted);
        }

        DropDone(filter, hidden);
        return true;
    }
}
