using EventFilter.Daemon.Formats;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Creates and drops of named filters, made durable as --log-sync says: one subclass per mode
/// (<see cref="ImmediateDurability"/> for <c>always</c>, <see cref="ControlLogDurability"/> for <c>periodic</c>). This
/// class serialises creates and drops with each other across their file I/O, hides a dropped filter's directory under
/// a ".deleted" name and removes its files at the next tick, and replays the control log at start.
/// See docs/daemon-design.md, "Durability".
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

    /// <summary>Creates the filter <paramref name="key"/>; null when it exists already.</summary>
    public NamedFilter? Create(ReadOnlySpan<byte> key, FilterParameters parameters)
    {
        lock (_changes)
        {
            return Map.Find(key) is null ? Add(key.ToArray(), parameters) : null;
        }
    }

    /// <summary>The filter <paramref name="key"/>, created if another connection has not made it since the caller looked.</summary>
    public NamedFilter FindOrCreate(ReadOnlySpan<byte> key, FilterParameters parameters)
    {
        lock (_changes)
        {
            return Map.Find(key) ?? Add(key.ToArray(), parameters);
        }
    }

    public bool Drop(ReadOnlySpan<byte> key)
    {
        lock (_changes)
        {
            if (Map.Find(key) is not { } filter)
            {
                return false;
            }

            DropLocked(filter);
            Dropped();
            return true;
        }
    }

    public void DropAll()
    {
        lock (_changes)
        {
            foreach (NamedFilter filter in Map.Snapshot())
            {
                DropLocked(filter);
            }

            Dropped(); // one fsync for them all with --log-sync always
        }
    }

    /// <summary>
    /// Moves a restored filter's durable directory <paramref name="staged"/> into place as <paramref name="key"/>'s,
    /// fsyncs <c>filters/</c>, records the create as the mode needs, and opens it; null (nothing moved) when the key has
    /// a filter or its name a directory meanwhile. <paramref name="moved"/> is told once the directory is in place.
    /// </summary>
    public NamedFilter? Publish(byte[] key, string staged, FilterParameters parameters, Action moved)
    {
        lock (_changes)
        {
            string final = Path.Combine(Root, FreeName(key));
            if (Map.Find(key) is not null || Directory.Exists(final))
            {
                return null;
            }

            Directory.Move(staged, final);
            moved();
            SyncRoot();
            Published(Path.GetFileName(final), parameters);
            NamedFilter filter = NamedFilter.Open(final, Observer);
            Map.Add(filter);
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

    /// <summary>
    /// Makes the filter in <c>filters/</c><paramref name="name"/> (under <see cref="Changes"/>), durable as the mode
    /// promises before the reply. Its files' descriptors come from <paramref name="claim"/>.
    /// </summary>
    protected abstract NamedFilter Make(string name, byte[] key, FilterParameters parameters, DescriptorClaim claim);

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
    /// What the control log says of each name, its records in order, over what <c>filters/</c> holds: a drop removes the
    /// directory it finds, counted in <paramref name="dropped"/>; a create whose directory is missing (or was dropped as
    /// unwritten) comes back pending, with the recorded parameters and the items recorded after it, and is returned. A
    /// create after a create is the same filter's, carried over by a tick; items after a drop belong to the dropped filter.
    /// A directory holds all the items recorded for it: a pending filter's directory is renamed into place with them.
    /// The filters whose last record is a create and that have a directory are returned in <paramref name="recorded"/>,
    /// marked for an fsync of their log and directory: a tick that a crash cut may have made them without one.
    /// </summary>
    protected List<NamedFilter> Replay(List<ControlRecord> records, ControlLog? heldLog, ref bool rootChanged, out int dropped, out List<NamedFilter> recorded)
    {
        List<NamedFilter> pending = [];
        recorded = [];
        dropped = 0;

        Dictionary<string, (ControlRecord? Create, List<ulong> Items)> last = RecoveryRules.LastByName(records);
        foreach ((string name, (ControlRecord? create, List<ulong> items)) in last)
        {
            if (create is null)
            {
                if (Map.FindByName(name) is { } filter)
                {
                    Map.Remove(filter);
                    filter.Close(checkpoint: false);
                    Directory.Delete(Path.Combine(Root, name), recursive: true);
                    KillPoints.Reached("start.drop-removed");
                    rootChanged = true;
                    dropped++;
                }
            }
            else if (Map.FindByName(name) is { } existing)
            {
                existing.NeedsSync();
                recorded.Add(existing);
            }
            else if (KeyNames.TryParse(name, out byte[] key))
            {
                // A long key's name does not hold the key, and its filter had its files from the create on: one whose
                // directory is missing was lost with power (docs/daemon-design.md, "Durability").
                NamedFilter filter = NamedFilter.CreatePending(Path.Combine(Root, name), key, create.Value.Parameters, Observer, heldLog, claim: null);
                filter.Hold(items);
                Map.Add(filter);
                pending.Add(filter);
            }
        }

        return pending;
    }

    private NamedFilter Add(byte[] key, FilterParameters parameters)
    {
        // Its log and first layer, whether made now (--log-sync always) or by the tick after its first add: claimed here
        // with the check, and split to the filter as it is made (they are owed until they open). A create that fails
        // before the filter exists gives the claim back.
        using DescriptorClaim claim = DescriptorBudget.Claim("a new filter", DescriptorBudget.PerNewFilter);
        NamedFilter filter = Make(FreeName(key), key, parameters, claim);
        Map.Add(filter);
        return filter;
    }

    /// <summary>
    /// The directory name for a new filter of <paramref name="key"/>, which has none: its hex, or the first hashed name
    /// no other filter and no directory has (another name only for a hash collision).
    /// </summary>
    private string FreeName(byte[] key)
    {
        string name = KeyNames.DirectoryName(key);
        for (int collision = 1; !KeyNames.IsHexNamed(key.Length) && (Map.FindByName(name) is not null || Directory.Exists(Path.Combine(Root, name))); collision++)
        {
            name = KeyNames.DirectoryName(key, collision);
        }

        return name;
    }

    private void DropLocked(NamedFilter filter)
    {
        DropStarting(filter.Name);
        Map.Remove(filter);
        filter.Close(checkpoint: false);
        bool hidden = filter.IsMaterialized;
        if (hidden)
        {
            // A name of its own, so that a filter dropped again before the last one's files are gone does not collide.
            string deleted = Path.Combine(Root, $"{filter.Name}.{++_drops}{DataLayout.DeletingSuffix}");
            Directory.Move(Path.Combine(Root, filter.Name), deleted);
            KillPoints.Reached("drop.renamed");
            _dropped.Add(deleted);
        }

        DropDone(filter, hidden);
    }
}
