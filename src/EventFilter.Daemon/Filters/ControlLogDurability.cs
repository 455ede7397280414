using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// --log-sync periodic: a create or drop is one record in the control log before its reply (a copy into a shared
/// mapping: it survives SIGKILL), and a new filter stays pending, with no files, until the tick after its first add:
/// until then it holds its items in memory and their digests go to the control log too (<see cref="HeldItems"/>).
/// Each tick makes what changed durable (<see cref="Tick"/>). See docs/daemon-design.md, "Durability" and "Locks".
/// </summary>
internal sealed class ControlLogDurability(FilterMap map, string root, FilterObserver observer, ControlLog control)
    : FilterDurability(map, root, observer)
{
    // Filters whose directory and log are not yet durable: pending ones (no files; their create record is carried from
    // control file to control file) and ones whose first add made their files since the last tick. Under Changes.
    private readonly HashSet<NamedFilter> _undurable = [];
    // Held by a tick across its fsyncs: ticks run one at a time, while creates and drops go on beside them.
    private readonly Lock _tickGate = new();
    // A directory came or went in filters/ since the last tick. Under Changes.
    private bool _rootChanged;
    // The inactive file may hold records not yet durable elsewhere: after a start (both files may, whatever step a
    // crash cut), or after a tick that failed after its switch. The next tick then finishes (files made, fsyncs, the
    // inactive file emptied) instead of switching, which would overwrite it. Under _tickGate.
    private bool _leftUnemptied;
    // A start's finishing tick appends the creates of pending filters without items to the active file before it
    // empties the other one, which may hold their only record. Under _tickGate.
    private bool _carryOnFinish;
    // "start" during the start's tick, for the kill points (KillPoints).
    private string _phase = "tick";

    /// <summary>
    /// Replays the records, then runs a tick that finishes rather than switches (docs/daemon-design.md, "Control-log
    /// recovery"): each step only adds what a crash there would leave redoable, and nothing is emptied before what it
    /// says is durable elsewhere, so a start killed at any point and started again ends where one start would have.
    /// </summary>
    public override (int Pending, int Dropped) Start(List<ControlRecord> records, bool rootChanged)
    {
        List<NamedFilter> pending = Replay(records, control, ref rootChanged, out int dropped, out List<NamedFilter> recorded);
        KillPoints.Reached("start.replayed");
        lock (Changes)
        {
            _undurable.UnionWith(pending);
            // Filters with files that the records name: files a crashed tick made may not be fsynced yet.
            _undurable.UnionWith(recorded);
            _rootChanged = rootChanged || recorded.Count > 0;
        }

        lock (_tickGate)
        {
            _leftUnemptied = records.Count > 0;
            // Only creates the inactive file may hold alone need carrying: after a clean stop they are all in the active one.
            _carryOnFinish = control.InactiveHadRecords;
            _phase = "start";
        }

        try
        {
            Tick();
        }
        finally
        {
            _phase = "tick";
        }

        return (pending.Count, dropped);
    }

    /// <summary>
    /// Under <see cref="FilterDurability.Changes"/> only the switch of control files (carrying the creates of pending
    /// filters that recorded no items); then, beside new creates, drops and adds, each pending filter whose items are in
    /// the file left gets its files (<see cref="NamedFilter.Materialize"/>), each filter whose files were made gets them
    /// fsynced, <c>filters/</c> is fsynced if a directory came or went, the new control file is fsynced, and the one left
    /// is emptied: every record in it is now durable elsewhere. A pending filter without items gets no files: its create
    /// record, carried, is its durable form until its first add. A tick after nothing at all does nothing.
    /// </summary>
    public override void Tick()
    {
        lock (_tickGate)
        {
            NamedFilter[] made;
            string[] dropped;
            bool rootChanged;
            lock (Changes)
            {
                // An add past what a pending filter holds makes its files: the tick asks, the filter tells no one.
                if (!control.HasNewRecords && !HasDropped && !_rootChanged && !_leftUnemptied && !_undurable.Any(filter => filter.HasFiles))
                {
                    return;
                }

                lock (control.Appends)
                {
                    // Items recorded from here on go to the next file, after its carried creates. No filter's lock here
                    // (docs/daemon-design.md, "Locks"): a filter that held an item says so before its digest is recorded, and
                    // never unsays it.
                    made = [.. _undurable.Where(filter => filter.HasFiles || filter.HasHeldItems)];
                    _undurable.ExceptWith(made);
                    if (!_leftUnemptied)
                    {
                        control.Switch(_undurable.Select(CreateRecord));
                    }
                    else if (_carryOnFinish)
                    {
                        // Appended, never overwritten: a create after a create is the same filter's.
                        foreach (NamedFilter filter in _undurable)
                        {
                            control.Append(CreateRecord(filter));
                        }

                        _carryOnFinish = false;
                    }
                }

                (rootChanged, _rootChanged) = (_rootChanged || made.Length > 0, false);
                dropped = TakeDropped();
            }

            try
            {
                KillPoints.Reached($"{_phase}.begun");
                // Off the commands' path: the inodes of the filters that got their first items since the last tick.
                foreach (NamedFilter filter in made)
                {
                    Materialize(filter);
                    KillPoints.Reached($"{_phase}.materialized");
                }

                foreach (NamedFilter filter in made)
                {
                    filter.Checkpoint(final: false); // fsyncs its log and, the first time, its directory
                    KillPoints.Reached($"{_phase}.filter-synced");
                }

                if (rootChanged)
                {
                    SyncRoot();
                }

                control.SyncActive();
                KillPoints.Reached($"{_phase}.synced");
                control.ResetInactive();
                KillPoints.Reached($"{_phase}.emptied");
                _leftUnemptied = false;
            }
            catch
            {
                // Nothing is lost: what the file left recorded is still in it or in memory, and the next tick redoes it.
                _leftUnemptied = true;
                lock (Changes)
                {
                    _undurable.UnionWith(made.Where(filter => !filter.IsClosed));
                    KeepDropped(dropped);
                    _rootChanged = true;
                }

                throw;
            }

            // Only now may a dropped filter's files go: the rename that hid them is durable.
            RemoveFiles(dropped);
        }
    }

    public override void Dispose() => control.Dispose();

    /// <summary>
    /// One record, and no inode allocated on the request path: the filter's files come with its first add. A long key's
    /// filter gets its files (key file first) now, since its record's name does not hold the key; the tick makes them durable.
    /// </summary>
    protected override NamedFilter Make(string name, byte[] key, FilterParameters parameters, DescriptorClaim claim)
    {
        control.Append(new ControlRecord(ControlAction.Create, name, parameters));
        KillPoints.Reached("create.recorded");
        NamedFilter filter = NamedFilter.CreatePending(Path.Combine(Root, name), key, parameters, Observer, control, claim);
        if (KeyNames.IsHashedName(name))
        {
            filter.Materialize();
        }

        _undurable.Add(filter);
        return filter;
    }

    /// <summary>Recorded before anything changes: a failed write leaves the filter as it was.</summary>
    protected override void DropStarting(string name) => control.Append(new ControlRecord(ControlAction.Drop, name, default));

    protected override void DropDone(NamedFilter filter, bool hidden)
    {
        _undurable.Remove(filter);
        _rootChanged |= hidden;
    }

    /// <summary>
    /// A create record, fsynced, so that a drop of the name recorded earlier in the control log cannot remove the
    /// restored filter at the next start.
    /// </summary>
    protected override void Published(string name, FilterParameters parameters)
    {
        control.Append(new ControlRecord(ControlAction.Create, name, parameters));
        control.SyncActive();
    }

    /// <summary>Gives a filter its files unless it was dropped meanwhile (its drop record then stands for it).</summary>
    private static void Materialize(NamedFilter filter)
    {
        try
        {
            filter.Materialize();
        }
        catch (ObjectDisposedException)
        {
        }
    }

    private static ControlRecord CreateRecord(NamedFilter filter) => new(ControlAction.Create, filter.Name, filter.Parameters);
}
