using EventFilter.Daemon.Formats;
using EventFilter.Durability;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// --log-sync periodic: a create or drop is one record in the control log before its reply (a copy into a shared
/// mapping: it survives SIGKILL), and a new filter stays pending, with no files, until its first add. Each tick makes
/// what changed durable (<see cref="Tick"/>). See docs/daemon.md, "Durability".
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
    // Set when a pending filter's first add made its files: the next tick fsyncs them and filters/.
    private volatile bool _filesMade;

    public override (int Pending, int Dropped) Start(List<ControlRecord> records, bool rootChanged)
    {
        List<NamedFilter> pending = Replay(records, FilesMade, ref rootChanged, out int dropped);
        lock (Changes)
        {
            _undurable.UnionWith(pending);
            _rootChanged = rootChanged;
        }

        Tick();
        return (pending.Count, dropped);
    }

    /// <summary>
    /// Under <see cref="FilterDurability.Changes"/> only the switch of control files (carrying pending filters' creates
    /// over); then, beside new creates and drops, each filter whose first add made its files gets them fsynced,
    /// <c>filters/</c> is fsynced if a directory came or went, the new control file is fsynced, and the one left is
    /// emptied: every record in it is now durable elsewhere. A pending filter gets no files here: its create record,
    /// carried, is its durable form until its first add. A tick after nothing at all does nothing.
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
                if (!control.HasNewRecords && !_filesMade && !HasDropped && !_rootChanged)
                {
                    return;
                }

                _filesMade = false;
                made = [.. _undurable.Where(filter => filter.IsMaterialized)];
                _undurable.ExceptWith(made);
                control.Switch(_undurable.Select(filter => new ControlRecord(ControlAction.Create, filter.Name, filter.Parameters)));
                (rootChanged, _rootChanged) = (_rootChanged || made.Length > 0, false);
                dropped = TakeDropped();
            }

            try
            {
                foreach (NamedFilter filter in made)
                {
                    filter.Checkpoint(final: false); // fsyncs its log and, the first time, its directory
                }

                if (rootChanged)
                {
                    SyncRoot();
                }

                control.SyncActive();
                control.ResetInactive();
            }
            catch
            {
                // Nothing is lost: what the file left recorded is still in memory, and the next tick carries or redoes it.
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
    protected override NamedFilter Make(string name, byte[] key, FilterParameters parameters)
    {
        control.Append(new ControlRecord(ControlAction.Create, name, parameters));
        NamedFilter filter = NamedFilter.CreatePending(Path.Combine(Root, name), key, parameters, Observer, FilesMade);
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

    private void FilesMade() => _filesMade = true;
}
