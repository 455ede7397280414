using EventFilter.Daemon.Formats;
using EventFilter.Storage;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// How a named filter's adds reach the disk: queued digests are written to the log before any reply (WriteLog), fsynced
/// before the reply with --log-sync always (SyncLog), and checkpointed into the layers every interval. See
/// docs/daemon-design.md, "Durability".
/// </summary>
internal sealed partial class NamedFilter
{
    // Held by a checkpoint across its fsyncs, and by Close: adds take only _gate, so they never wait for the disk.
    private readonly Lock _checkpointGate = new();
    // Log positions: the end of what the last fsync covered, and the position the layers were last checkpointed at.
    private long _synced;
    private long _checkpointed;
    // False from a create until the checkpoint that fsyncs its log header and directory entry.
    private bool _durable;

    /// <summary>Writes the digests added so far to the log (the page cache: from here they survive SIGKILL).</summary>
    public void WriteLog()
    {
        lock (_gate)
        {
            WriteLogLocked();
        }
    }

    /// <summary>
    /// fsyncs the log, outside the lock: one fsync covers every add any connection wrote before it, so pipelined and
    /// concurrent adds share it (group commit). Throws ObjectDisposedException when the filter was deleted meanwhile.
    /// </summary>
    public void SyncLog() => _log?.Sync();

    /// <summary>
    /// Log bytes a tick lets pile up past the layers' checkpoint (8,192 items) before it checkpoints them again. The log
    /// is fsynced at every tick whatever this says (that is what bounds the loss on power failure); a layer checkpoint
    /// (a journal append and its fsync per layer) only bounds the catch-up at the next start, so a filter with a few
    /// adds per tick does not pay one every tick: with hundreds of such filters those fsyncs took the CPU the adds need.
    /// </summary>
    public const long CheckpointEveryBytes = 8192 * DigestLogFormat.RecordLength;

    /// <summary>
    /// Syncs the log if anything was added since the last time, and checkpoints every layer at its end when
    /// <paramref name="final"/> or when <see cref="CheckpointEveryBytes"/> piled up. The first call after a create also
    /// fsyncs the filter's directory, so that its log's name is durable (the store then syncs the directory above it).
    /// The fsyncs run outside the add lock, so adds never wait for the disk; the checkpoint lock keeps a DEL from
    /// closing the files meanwhile.
    /// </summary>
    public void Checkpoint(bool final)
    {
        lock (_checkpointGate)
        {
            long position;
            FilterLayer[] layers;
            DigestLog log;
            lock (_gate)
            {
                // A pending filter has nothing to sync: the store's tick materializes it first (FilterStore.SyncDirectories).
                if (_closed || _log is null)
                {
                    return;
                }

                log = _log;
                WriteLogLocked();
                position = log.EndPosition;
                bool layersDue = position - _checkpointed >= (final ? 1 : CheckpointEveryBytes);
                if (position == _synced && _durable && !layersDue)
                {
                    return;
                }

                // Every record before this position was added to its layer under this lock: the checkpoint may claim it.
                layers = layersDue ? [.. _layers] : [];
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

    /// <summary>The log is open at <paramref name="end"/>: nothing to sync or checkpoint before it. A new log is not yet <paramref name="durable"/>.</summary>
    private void LogOpened(long end, bool durable)
    {
        _synced = _checkpointed = end;
        _durable = durable;
    }

    private void WriteLogLocked()
    {
        if (_closed)
        {
            return;
        }

        if (_log is null)
        {
            WriteHeld(); // the items a pending filter holds go to the control log
        }
        else
        {
            _unwritten.WriteTo(_log);
        }
    }
}
