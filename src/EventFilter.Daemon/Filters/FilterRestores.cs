using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Restores by BF.LOADCHUNK. The header chunk starts a <see cref="RestoreSession"/> whose filter is filled in a ".tmp"
/// directory the key does not see; the last chunk makes it durable, moves it into place and only then makes the key
/// exist, so no client ever sees a half-loaded filter, and a crash mid-restore leaves nothing (a start removes ".tmp"
/// directories). A refused chunk changes nothing; a failed write abandons the restore. A restore belongs to its key,
/// not to a connection: when the one that fed it last goes away it is parked, holding no descriptor, and the next chunk
/// from any connection goes on with it. Messages are the error replies' text after "ERR ". See docs/daemon.md,
/// "Backup and restore".
/// </summary>
internal sealed partial class FilterRestores(FilterMap map, string root, FilterObserver observer, FilterDurability durability, TimeProvider time)
{
    /// <summary>
    /// An unfinished restore that got no chunk for this long is abandoned, its files and descriptors freed: its client
    /// went away (a restore loop sends its chunks back to back).
    /// </summary>
    public static readonly TimeSpan IdleLimit = TimeSpan.FromMinutes(5);

    // Guarded by itself. Keyed by the filter's key, as the map is.
    private readonly Dictionary<byte[], RestoreSession> _restores = new(KeyComparer.Instance);

    // Guarded by _restores. The restores published last, with the filter each made: the last chunk sent again (a
    // client's retry after its OK was lost) is answered OK again while the key still holds that filter. A retry comes
    // at once, so a bounded memory serves it: cleared when full.
    private readonly Dictionary<byte[], (RestoreSession Session, NamedFilter Filter)> _published = new(KeyComparer.Instance);
    private const int MaxPublished = 1024;
    private long _restoreCount;

    /// <summary>Starts restoring <paramref name="header"/>'s dump into <paramref name="key"/>, which must have no filter; replaces an unfinished restore of the key.</summary>
    /// <exception cref="DescriptorLimitException">The restore's files would take the descriptors past the limit.</exception>
    public string? Begin(ReadOnlySpan<byte> key, DumpHeader header, long feeder)
    {
        if (map.Find(key) is { } existing)
        {
            // A dump of no items has the header as its last chunk: the same header again is a retry of a restore that is done.
            if (header.Chunks == 0 && PublishedAs(key, existing) is { } done && done.Header == header)
            {
                return null;
            }

            return "item exists: BF.LOADCHUNK restores a dump into a key that has no filter; DEL it first";
        }

        using DescriptorClaim claim = DescriptorBudget.Claim("a restore", DescriptorBudget.PerNewFilter);

        // Its files first: a failure to make them (a full disk) leaves any restore under way as it was.
        string holder = Path.Combine(root, $"{KeyNames.DirectoryName(key)}.restore-{Interlocked.Increment(ref _restoreCount)}{DataLayout.CreatingSuffix}");
        var session = new RestoreSession(key.ToArray(), holder, header) { LastUsed = time.GetTimestamp(), Feeder = feeder };
        session.Staged = NamedFilter.Create(session.Directory, session.Key, header.Parameters, observer, claim);

        RestoreSession? replaced;
        lock (_restores)
        {
            _restores.Remove(session.Key, out replaced);
            _restores[session.Key] = session;
        }

        if (replaced is not null)
        {
            lock (replaced.Gate)
            {
                Abandon(replaced);
            }
        }

        lock (session.Gate)
        {
            return session.IsComplete ? Publish(session) : null;
        }
    }

    /// <summary>Loads the next chunk of the key's restore; the last one publishes the filter.</summary>
    public string? LoadItems(ReadOnlySpan<byte> key, long iterator, DumpItems items, long feeder)
    {
        RestoreSession? session;
        lock (_restores)
        {
            _restores.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(key, out session);
        }

        if (session is null && map.Find(key) is { } existing && PublishedAs(key, existing) is { } done)
        {
            lock (done.Gate)
            {
                if (done.Check(iterator, items, out bool repeat) is null && repeat)
                {
                    return null;
                }
            }
        }

        if (session is null)
        {
            return map.Find(key) is null
                ? "not found: no restore of this key is under way; load the dump's first chunk (BF.SCANDUMP's answer to iterator 0) first"
                : "the key holds a filter and is not being restored: BF.LOADCHUNK restores a dump into a key that has no filter";
        }

        lock (session.Gate)
        {
            if (session.IsOver)
            {
                return "the restore of this key has ended (finished, abandoned or started again); load the dump from its first chunk";
            }

            session.LastUsed = time.GetTimestamp();
            string? problem = session.Check(iterator, items, out bool repeat);
            if (problem is not null || repeat)
            {
                return problem;
            }

            session.Resume(observer);
            try
            {
                session.Feeder = feeder;
                session.Staged!.AppendRestored(items.Digests);
            }
            catch (IOException failure)
            {
                Abandon(session);
                return $"the restore failed and was abandoned ({failure.Message}); load the dump again from its first chunk";
            }

            session.Loaded(items);
            return session.IsComplete ? Publish(session) : null;
        }
    }

    /// <summary>
    /// The last chunk is in: makes the filter durable (its log and layers fsynced); then the create path moves its
    /// directory into place, fsyncs filters/ (and with --log-sync periodic appends a create record, fsynced, so that a drop
    /// of the key recorded earlier cannot remove it at the next start), and only then lets the key see it.
    /// </summary>
    private string? Publish(RestoreSession session)
    {
        try
        {
            session.Staged!.Close(checkpoint: true);
            if (durability.Publish(session.Key, session.Directory, session.Header.Parameters, moved: () => session.IsOver = true) is not { } filter)
            {
                Abandon(session);
                return "item exists: a filter was made under the key while it was being restored; the restore was abandoned";
            }

            lock (_restores)
            {
                if (_published.Count >= MaxPublished)
                {
                    _published.Clear();
                }

                _published[session.Key] = (session, filter);
            }
        }
        catch (Exception failure) when (failure is IOException or InvalidDataException or UnauthorizedAccessException)
        {
            Abandon(session);
            return $"the restore failed and was abandoned ({failure.Message}); load the dump again from its first chunk";
        }
        finally
        {
            Forget(session);
        }

        // Empty now; a start would remove it (a rename is one step in the file system's journal: never in both places).
        RemoveFiles(session);
        return null;
    }

    /// <summary>Ends a restore that will not finish: its files go (the caller holds its gate).</summary>
    private void Abandon(RestoreSession session)
    {
        Forget(session);
        if (session.IsOver)
        {
            return;
        }

        session.IsOver = true;
        session.Staged?.Close(checkpoint: false);
        RemoveFiles(session);
    }

    private static void RemoveFiles(RestoreSession session)
    {
        if (Directory.Exists(session.Holder))
        {
            Directory.Delete(session.Holder, recursive: true);
        }
    }

    /// <summary>The restore that made <paramref name="filter"/>, the key's filter now, if it is one of those published last.</summary>
    private RestoreSession? PublishedAs(ReadOnlySpan<byte> key, NamedFilter filter)
    {
        lock (_restores)
        {
            return _published.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(key, out var done) && done.Filter == filter ? done.Session : null;
        }
    }

    private void Forget(RestoreSession session)
    {
        lock (_restores)
        {
            if (_restores.TryGetValue(session.Key, out RestoreSession? current) && current == session)
            {
                _restores.Remove(session.Key);
            }
        }
    }

    /// <summary>DEL of a key drops its unfinished restore too, freeing its files and descriptors; true if there was one.</summary>
    public bool Abandon(ReadOnlySpan<byte> key)
    {
        RestoreSession? session;
        lock (_restores)
        {
            _restores.GetAlternateLookup<ReadOnlySpan<byte>>().TryGetValue(key, out session);
        }

        if (session is null)
        {
            return false;
        }

        lock (session.Gate)
        {
            Abandon(session);
        }

        return true;
    }

    /// <summary>At a clean stop: unfinished restores are dropped with their files.</summary>
    public void AbandonAll() => AbandonWhere(_ => true);

    /// <summary>Each sync tick: restores idle past <see cref="IdleLimit"/> are dropped with their files; returns how many.</summary>
    public int AbandonIdle() => AbandonWhere(session => time.GetElapsedTime(session.LastUsed) > IdleLimit);

    private RestoreSession[] Sessions()
    {
        lock (_restores)
        {
            return [.. _restores.Values];
        }
    }

    private int AbandonWhere(Func<RestoreSession, bool> condition)
    {
        int abandoned = 0;
        foreach (RestoreSession session in Sessions())
        {
            lock (session.Gate)
            {
                if (!session.IsOver && condition(session))
                {
                    Abandon(session);
                    abandoned++;
                }
            }
        }

        return abandoned;
    }
}
