using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>What a start finds in <c>filters/</c>, one kind per directory (<see cref="RecoveryRules.Classify"/>).</summary>
internal enum FilterDirectoryKind
{
    /// <summary>Not ours: left alone.</summary>
    Foreign,

    /// <summary>What an interrupted create, drop or restore left (".tmp", ".deleted", ".restore-"): removed.</summary>
    Leftover,

    /// <summary>A create whose log (or a long key's key file) never reached the disk: removed, with a warning.</summary>
    Unwritten,

    /// <summary>A filter: opened.</summary>
    Filter,
}

/// <summary>
/// The rules a start recovers by, in one place for the start check, which counts what the start will open before it
/// changes anything (<see cref="StartCheck"/>), and the start itself, which does it (<see cref="FilterStore"/>,
/// <see cref="FilterDurability"/>): which directories are filters, and what the control log says of each name. See
/// docs/daemon-design.md, "Control-log recovery".
/// </summary>
internal static class RecoveryRules
{
    /// <summary>The kind of <c>filters/</c><paramref name="name"/>.</summary>
    public static FilterDirectoryKind Classify(string directory, string name)
    {
        if (DataLayout.IsLeftover(name))
        {
            return FilterDirectoryKind.Leftover;
        }

        if (!KeyNames.IsFilterName(name))
        {
            return FilterDirectoryKind.Foreign;
        }

        bool unwritten = DigestLog.IsUnwritten(FilterDirectory.LogPath(directory))
            || (KeyNames.IsHashedName(name) && KeyFileFormat.IsUnwritten(DigestLog.FirstBytes(Path.Combine(directory, DataLayout.KeyFile), KeyFileFormat.HeaderLength)));
        return unwritten ? FilterDirectoryKind.Unwritten : FilterDirectoryKind.Filter;
    }

    /// <summary>
    /// What the control log says of each name, its records in order: its last create (null after a drop) and the digests
    /// recorded after it. A create after a create is the same filter's, carried over by a tick, and changes nothing;
    /// items after a drop belong to the dropped filter, and are ignored.
    /// </summary>
    public static Dictionary<string, (ControlRecord? Create, List<ulong> Items)> LastByName(IEnumerable<ControlRecord> records)
    {
        var last = new Dictionary<string, (ControlRecord? Create, List<ulong> Items)>(StringComparer.Ordinal);
        foreach (ControlRecord record in records)
        {
            (ControlRecord? create, List<ulong> items) = last.GetValueOrDefault(record.Name, (null, []));
            switch (record.Action)
            {
                case ControlAction.Create when create is null:
                    last[record.Name] = (record, []);
                    break;
                case ControlAction.Drop:
                    last[record.Name] = (null, []);
                    break;
                case ControlAction.Items when create is not null:
                    items.AddRange(record.Digests!);
                    last[record.Name] = (create, items);
                    break;
            }
        }

        return last;
    }
}
