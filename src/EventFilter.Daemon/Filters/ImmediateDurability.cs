using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// --log-sync always: a create or drop is durable before its reply. A create makes the filter's directory and log and
/// fsyncs them and <c>filters/</c>; a drop renames the directory to ".deleted" and fsyncs <c>filters/</c>. No control
/// record is written: the control log is read at start only, to carry over what an earlier periodic run left in it.
/// See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed class ImmediateDurability(FilterMap map, string root, FilterObserver observer, ControlLog control)
    : FilterDurability(map, root, observer)
{
    // Open only from the start until Start has emptied it.
    private ControlLog? _control = control;

    /// <summary>
    /// Filters still pending from a periodic run get their files now, made durable with <c>filters/</c>; then both control
    /// files are emptied, since every record in them is durable in <c>filters/</c>.
    /// </summary>
    public override (int Pending, int Dropped) Start(List<ControlRecord> records, bool rootChanged)
    {
        ControlLog control = _control!;
        List<NamedFilter> carried = Replay(records, heldLog: null, ref rootChanged, out int dropped, out List<NamedFilter> recorded);
        KillPoints.Reached("start.replayed");
        foreach (NamedFilter pending in carried)
        {
            pending.Materialize();
            KillPoints.Reached("start.materialized");
            pending.Checkpoint(final: false); // fsyncs its log and its directory
            rootChanged = true;
        }

        foreach (NamedFilter filter in recorded)
        {
            filter.Checkpoint(final: false); // a periodic tick that a crash cut may have left its files unsynced
            rootChanged = true;
        }

        if (rootChanged)
        {
            SyncRoot();
        }

        if (control.HasNewRecords)
        {
            // Both files are emptied only now that every record in them is durable in filters/, so a switch may overwrite one.
            control.Switch([]);
            control.SyncActive();
            KillPoints.Reached("start.synced");
            control.ResetInactive();
            KillPoints.Reached("start.emptied");
        }

        control.Dispose();
        _control = null;
        return (carried.Count, dropped);
    }

    /// <summary>The drops' renames were fsynced before their replies: only their files are left to remove.</summary>
    public override void Tick()
    {
        string[] dropped;
        lock (Changes)
        {
            dropped = TakeDropped();
        }

        RemoveFiles(dropped);
    }

    public override void Dispose() => _control?.Dispose();

    protected override NamedFilter Make(string name, byte[] key, FilterParameters parameters, DescriptorClaim claim)
    {
        string directory = Path.Combine(Root, name);
        NamedFilter? filter = null;
        try
        {
            filter = NamedFilter.Create(directory, key, parameters, Observer, claim);
            KillPoints.Reached("create.made");
            // The log header and its name first, then the filter's name in filters/: only then is it acknowledged.
            filter.Checkpoint(final: false);
            SyncRoot();
            return filter;
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
    }

    protected override void Dropped() => SyncRoot();
}
