using EventFilter.Daemon.Formats;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Restores by BF.LOADCHUNK. The header chunk starts a <see cref="RestoreSession"/> whose filter is filled in a ".tmp"
/// directory the key does not see; the last chunk makes it durable, moves it into place and only then makes the key
/// exist, so no client ever sees a half-loaded filter, and a crash mid-restore leaves nothing (a start removes ".tmp"
/// directories). A refused chunk changes nothing; a failed write abandons the restore. Messages are the error
/// replies' text after "ERR ". See docs/daemon.md, "Backup and restore".
/// </summary>
internal sealed partial class FilterStore
{
    // Guarded by itself. Keyed by the filter's directory name, as _filters is.
    private readonly Dictionary<string, RestoreSession> _restores = new(StringComparer.Ordinal);
    private long _restoreCount;

    /// <summary>Starts restoring <paramref name="header"/>'s dump into <paramref name="key"/>, which must have no filter; replaces an unfinished restore of the key.</summary>
    public string? BeginRestore(ReadOnlySpan<byte> key, DumpHeader header)
    {
        string name = KeyNames.DirectoryName(key);
        if (Find(name) is not null)
        {
            return "item exists: BF.LOADCHUNK restores a dump into a key that has no filter; DEL it first";
        }

        // Its files first: a failure to make them (a full disk) leaves any restore under way as it was.
        string directory = Path.Combine(_root, $"{name}.restore-{Interlocked.Increment(ref _restoreCount)}{DataLayout.CreatingSuffix}");
        var session = new RestoreSession(name, directory, header, NamedFilter.Create(directory, header.Parameters, _observer));
        RestoreSession? replaced;
        lock (_restores)
        {
            _restores.Remove(name, out replaced);
            _restores[name] = session;
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
    public string? LoadItems(ReadOnlySpan<byte> key, long iterator, DumpItems items)
    {
        string name = KeyNames.DirectoryName(key);
        RestoreSession? session;
        lock (_restores)
        {
            _restores.TryGetValue(name, out session);
        }

        if (session is null)
        {
            return Find(name) is null
                ? "not found: no restore of this key is under way; load the dump's first chunk (BF.SCANDUMP's answer to iterator 0) first"
                : "the key holds a filter and is not being restored: BF.LOADCHUNK restores a dump into a key that has no filter";
        }

        lock (session.Gate)
        {
            if (session.IsOver)
            {
                return "the restore of this key has ended (finished, abandoned or started again); load the dump from its first chunk";
            }

            string? problem = session.Check(iterator, items, out bool repeat);
            if (problem is not null || repeat)
            {
                return problem;
            }

            try
            {
                session.Staged.AppendRestored(items.Digests);
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
    /// The last chunk is in: makes the filter durable (its log and layers fsynced), moves its directory into place and
    /// fsyncs filters/, then lets the key see it. With --log-sync periodic a create record follows, fsynced, so that a
    /// drop of the key recorded earlier in the control log cannot remove the restored filter at the next start.
    /// </summary>
    private string? Publish(RestoreSession session)
    {
        string final = Path.Combine(_root, session.Name);
        try
        {
            session.Staged.Close(checkpoint: true);
            lock (_controlGate)
            {
                if (Find(session.Name) is not null || Directory.Exists(final))
                {
                    Abandon(session);
                    return "item exists: a filter was made under the key while it was being restored; the restore was abandoned";
                }

                Directory.Move(session.Directory, final);
                session.IsOver = true;
                DurableDirectory.Sync(_root);
                if (_logSync == LogSync.Periodic)
                {
                    _control!.Append(new ControlRecord(ControlAction.Create, session.Name, session.Header.Parameters));
                    _control.SyncActive();
                }

                NamedFilter filter = NamedFilter.Open(final, _observer);
                lock (_gate)
                {
                    _filters[session.Name] = filter;
                }
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
        session.Staged.Close(checkpoint: false);
        if (Directory.Exists(session.Directory))
        {
            Directory.Delete(session.Directory, recursive: true);
        }
    }

    private void Forget(RestoreSession session)
    {
        lock (_restores)
        {
            if (_restores.TryGetValue(session.Name, out RestoreSession? current) && current == session)
            {
                _restores.Remove(session.Name);
            }
        }
    }

    /// <summary>At a clean stop: unfinished restores are dropped with their files.</summary>
    private void AbandonRestores()
    {
        RestoreSession[] sessions;
        lock (_restores)
        {
            sessions = [.. _restores.Values];
        }

        foreach (RestoreSession session in sessions)
        {
            lock (session.Gate)
            {
                Abandon(session);
            }
        }
    }
}
