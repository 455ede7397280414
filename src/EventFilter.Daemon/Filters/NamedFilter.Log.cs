using EventFilter.Daemon.Formats;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// A named filter's log: queued digests are written before any reply (<see cref="WriteLog"/>), fsynced before the reply
/// with --log-sync always (<see cref="SyncLog"/>), checkpointed into the layers every interval, read by a dump and
/// appended to by a restore. See docs/daemon-design.md, "Durability" and "Locks", and docs/daemon.md, "Backup and restore".
/// </summary>
internal sealed partial class NamedFilter
{
    /// <summary>
    /// Log bytes a tick lets pile up past the layers' checkpoint (8,192 items) before it checkpoints them again. The log
    /// is fsynced at every tick whatever this says (that is what bounds the loss on power failure); a layer checkpoint
    /// (a journal append and its fsync per layer) only bounds the catch-up at the next start, so a filter with a few
    /// adds per tick does not pay one every tick: with hundreds of such filters those fsyncs took the CPU the adds need.
    /// </summary>
    public const long CheckpointEveryBytes = 8192 * DigestLogFormat.RecordLength;

    // Under _checkpointGate: the end of what the last fsync covered, the position the layers were last checkpointed at,
    // and false from a create until the checkpoint that fsyncs its log header and directory entry.
    private long _synced;
    private long _checkpointed;
    private bool _durable;

    /// <summary>
    /// Writes every digest queued so far to the log (the page cache: from here they survive SIGKILL), or a pending
    /// filter's held items to the control log.
    /// </summary>
    /// <remarks>
    /// The write runs under the write lock only, so adds to the filter go on during its <c>pwrite</c>. Safe because:
    /// an item is put in its layer and queued in one step under the add lock, and its index (the layer it went to) is
    /// its place in the queue; a writer takes the whole queue under the add lock, and writers run one at a time, so the
    /// log gets the queue's digests in queue order, which is the routing order. A caller that returns from here has
    /// waited for any write in flight (it held the write lock) and written what was queued after it, so every add
    /// made before the call, another connection's too, is in the log before its reply. A checkpoint writes under the
    /// same lock before it reads the log's end, and every record before that end was in its layer before it was
    /// queued, so the checkpoint never claims a record its layer lacks.
    /// </remarks>
    public void WriteLog()
    {
        lock (_writeGate)
        {
            WriteQueued();
        }
    }

    /// <summary>
    /// fsyncs the log, outside the locks: one fsync covers every add any connection wrote before it, so pipelined and
    /// concurrent adds share it (group commit). Throws ObjectDisposedException when the filter was deleted meanwhile.
    /// </summary>
    public void SyncLog() => PublishedLog?.Sync();

    /// <summary>
    /// Syncs the log if anything was added since the last time, and checkpoints every layer at its end when
    /// <paramref name="final"/> or when <see cref="CheckpointEveryBytes"/> piled up. The first call after a create also
    /// fsyncs the filter's directory, so that its log's name is durable (the store then syncs the directory above it).
    /// The fsyncs run outside the add and write locks, so adds never wait for the disk; the checkpoint lock keeps a DEL
    /// from closing the files meanwhile.
    /// </summary>
    public void Checkpoint(bool final)
    {
        lock (_checkpointGate)
        {
            DigestLog log;
            long position;
            lock (_writeGate)
            {
                // A pending filter has nothing to sync: the store's tick materializes it first (FilterStore.SyncDirectories).
                if (_closed || PublishedLog is not { } open)
                {
                    return;
                }

                log = open;
                WriteQueued();
                position = log.EndPosition;
            }

            bool layersDue = position - _checkpointed >= (final ? 1 : CheckpointEveryBytes);
            if (position == _synced && _durable && !layersDue)
            {
                return;
            }

            FilterLayer[] layers = [];
            if (layersDue)
            {
                // After the position: every record before it was in its layer before it was queued.
                lock (_gate)
                {
                    layers = _layers.Snapshot();
                }
            }

            // The log first: a checkpoint is never ahead of the log it is a position in.
            log.Sync();
            _synced = position;
            if (!_durable)
            {
                DurableDirectory.Sync(_directory);
                _durable = true;
            }

            if (layers.Length > 0)
            {
                foreach (FilterLayer layer in layers)
                {
                    layer.Checkpoint(position);
                    KillPoints.Reached("checkpoint.layer");
                }

                _checkpointed = position;
            }
        }
    }

    /// <summary>The next <see cref="Checkpoint"/> fsyncs the log and the directory, whatever was synced before (a start's replay).</summary>
    public void NeedsSync()
    {
        lock (_checkpointGate)
        {
            _durable = false;
        }
    }

    /// <summary>
    /// The items a dump that begins now covers (every add acknowledged so far is in the log, or is written now) and the
    /// last one's digest (0 when there are none); null when the filter was deleted meanwhile. A dump reads the log, so
    /// the items a pending filter holds get their files first. See docs/daemon.md, "Backup and restore".
    /// </summary>
    public (long Items, ulong Last)? DumpStart()
    {
        lock (_writeGate)
        {
            lock (_gate)
            {
                if (_closed)
                {
                    return null;
                }

                if (_held.Count > 0)
                {
                    MaterializeLocked();
                }
            }

            WriteQueued();
            long items = _log?.Records ?? 0;
            Span<ulong> last = stackalloc ulong[1];
            return (items, items > 0 && _log!.ReadRecords(items - 1, last) ? last[0] : 0);
        }
    }

    /// <summary>Reads the digests of items [<paramref name="first"/>, first + length) of the log; false when the filter was deleted or holds fewer.</summary>
    public bool ReadItems(long first, Span<ulong> digests)
    {
        lock (_gate)
        {
            // Records below the log's end do not change: a write in flight only appends past it.
            return !_closed && _log is not null && _log.ReadRecords(first, digests);
        }
    }

    /// <summary>
    /// Appends items a restore took, in log order: each to the layer its index belongs to, then all to the log with one
    /// write. No lookup first: the dumped filter's log holds each item once already. The caller has checked that the
    /// parameters allow this many items. A restore's filter is seen by no command, so nothing adds to it meanwhile.
    /// </summary>
    public void AppendRestored(ReadOnlySpan<ulong> digests)
    {
        lock (_writeGate)
        {
            ObjectDisposedException.ThrowIf(_closed, this);
            Materialize();
            WriteQueued();
            lock (_gate)
            {
                _layers.AddRestored(digests, _items, _log!);
                CountRestored(digests.Length);
            }

            _log!.Append(digests);
        }
    }

    /// <summary>
    /// The log is open at its end, nothing to sync or checkpoint before it (a new log is not yet <paramref name="durable"/>);
    /// then it is published, so that a checkpoint that sees it sees these too.
    /// </summary>
    private void Opened(DigestLog log, bool durable)
    {
        _synced = _checkpointed = log.EndPosition;
        _durable = durable;
        Publish(log);
    }

    /// <summary>Under _writeGate: what a failed write left, then everything queued, each to the log it was taken for.</summary>
    private void WriteQueued()
    {
        if (_closed)
        {
            return;
        }

        WriteTaken(); // digests a failed write left go first: they were queued first
        lock (_gate)
        {
            _unwritten.Take(_log);
        }

        WriteTaken();
    }

    private void WriteTaken()
    {
        if (_unwritten.TakenCount == 0)
        {
            return;
        }

        if (_unwritten.TakenFor is { } log)
        {
            log.Append(_unwritten.Taken);
        }
        else
        {
            _held.Record(Name, _unwritten.Taken); // a pending filter's held items go to the control log
        }

        _unwritten.Written();
    }

    /// <summary>Makes the files of a pending filter (the next tick, which asks <see cref="HasFiles"/>, makes them durable).</summary>
    private void MaterializeLocked()
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        if (_log is not null)
        {
            return;
        }

        // Only a pending filter has no log, and it owes one.
        DigestLog log = _held.Count > 0
            ? FilterDirectory.CreateHolding(_directory, Parameters, _held.Order, _owedLog!)
            : FilterDirectory.Create(_directory, Key, Parameters, _owedLog!);
        _unwritten.Clear(); // a pending filter queues only held items, which are in the log now
        Opened(log, durable: false);
        _held.Release();
        _layers.OpenToEnd(log);
    }
}
