using EventFilter.Durability;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One named filter: its digest log and its chain of layers. An add checks every layer, puts a new item in the last
/// one (growing the chain when that is full, as RedisBloom does), and appends its digest to the log before the reply
/// is written. One lock per filter; lookups take it too, so a DEL can never unmap a layer under a reader.
/// </summary>
internal sealed class NamedFilter : IDisposable
{
    private readonly Lock _gate = new();
    private readonly DigestLog _log;
    private readonly string _directory;
    private readonly FilterObserver _observer;
    private readonly List<FilterLayer> _layers = [];
    private ulong[] _pending = new ulong[64];
    private long _checkpointed;
    private bool _closed;

    private NamedFilter(string directory, DigestLog log, FilterObserver observer)
    {
        _directory = directory;
        _log = log;
        _observer = observer;
    }

    public FilterParameters Parameters => _log.Parameters;

    public static string LogPath(string directory) => Path.Combine(directory, "digest.log");

    /// <summary>Opens the filter in <paramref name="directory"/>: its log, then every layer the log's items reach, each caught up.</summary>
    public static NamedFilter Open(string directory, FilterObserver observer)
    {
        var filter = new NamedFilter(directory, DigestLog.Open(LogPath(directory)), observer);
        try
        {
            long records = filter._log.Records;
            do
            {
                filter.OpenLayer(filter._layers.Count);
            }
            while (filter._layers[^1].Start + filter._layers[^1].Capacity < records);
            filter._checkpointed = filter._log.EndPosition;
            return filter;
        }
        catch
        {
            filter.Dispose();
            throw;
        }
    }

    /// <summary>Items BF.ADD answered 1 for (BF.CARD, "Number of items inserted").</summary>
    public long Count { get { lock (_gate) { return _closed ? 0 : _log.Records; } } }

    public (long Capacity, long SizeBytes, int Layers, long Items) Describe()
    {
        lock (_gate)
        {
            return (_layers.Sum(l => l.Capacity), _layers.Sum(l => l.SizeBytes), _layers.Count, _log.Records);
        }
    }

    /// <summary>Answers for each digest whether it may have been added; false when the filter was deleted meanwhile.</summary>
    public bool MightExist(ReadOnlySpan<ulong> digests, Span<bool> results)
    {
        lock (_gate)
        {
            if (_closed)
            {
                return false;
            }

            for (int i = 0; i < digests.Length; i++)
            {
                results[i] = MightExistLocked(digests[i]);
            }

            return true;
        }
    }

    /// <summary>
    /// Adds each digest, answering true when it was new; stops at the first one a full filter refuses. Every new
    /// digest is written to the log (the page cache: it survives SIGKILL) before this returns, so before the reply;
    /// with --log-sync always the connection calls <see cref="SyncLog"/> before it sends the replies.
    /// </summary>
    public AddOutcome Add(ReadOnlySpan<ulong> digests, Span<bool> added, out int answered)
    {
        answered = 0;
        lock (_gate)
        {
            if (_closed)
            {
                return AddOutcome.Closed;
            }

            if (_pending.Length < digests.Length)
            {
                _pending = new ulong[Math.Max(digests.Length, _pending.Length * 2)];
            }

            int fresh = 0;
            AddOutcome outcome = AddOutcome.Done;
            long records = _log.Records;
            for (; answered < digests.Length; answered++)
            {
                ulong digest = digests[answered];
                if (MightExistLocked(digest))
                {
                    added[answered] = false;
                    continue;
                }

                FilterLayer last = _layers[^1];
                if (records + fresh >= last.Start + last.Capacity && (outcome = Grow()) != AddOutcome.Done)
                {
                    break;
                }

                _layers[^1].File.AddHash(digest);
                _pending[fresh++] = digest;
                added[answered] = true;
            }

            if (fresh > 0)
            {
                _log.Append(_pending.AsSpan(0, fresh));
            }

            return outcome;
        }
    }

    /// <summary>
    /// fsyncs the log, outside the lock: one fsync covers every add any connection wrote before it, so pipelined and
    /// concurrent adds share it (group commit). Throws ObjectDisposedException when the filter was deleted meanwhile.
    /// </summary>
    public void SyncLog() => _log.Sync();

    /// <summary>Syncs the log and checkpoints every layer at its end, unless nothing changed since the last time.</summary>
    public void Checkpoint()
    {
        lock (_gate)
        {
            if (_closed || _log.EndPosition == _checkpointed)
            {
                return;
            }

            // The log first: a checkpoint is never ahead of the log it is a position in.
            _log.Sync();
            foreach (FilterLayer layer in _layers)
            {
                layer.Checkpoint(_log.EndPosition);
            }

            _checkpointed = _log.EndPosition;
        }
    }

    /// <summary>Closes the files; with <paramref name="checkpoint"/>, after a last checkpoint (a clean stop).</summary>
    public void Close(bool checkpoint)
    {
        if (checkpoint)
        {
            Checkpoint();
        }

        lock (_gate)
        {
            _closed = true;
            Dispose();
        }
    }

    public void Dispose()
    {
        foreach (FilterLayer layer in _layers)
        {
            layer.Dispose();
        }

        _layers.Clear();
        _log.Dispose();
    }

    private bool MightExistLocked(ulong digest)
    {
        foreach (FilterLayer layer in _layers)
        {
            if (layer.File.MightExistHash(digest))
            {
                return true;
            }
        }

        return false;
    }

    private AddOutcome Grow()
    {
        if (Parameters.NonScaling)
        {
            return AddOutcome.Full;
        }

        if (_layers.Count >= FilterParameters.MaxLayers || Parameters.LayerOptions(_layers.Count) is null)
        {
            return AddOutcome.CannotGrow;
        }

        OpenLayer(_layers.Count);
        return AddOutcome.Done;
    }

    private void OpenLayer(int layer)
    {
        FilterFileOptions options = Parameters.LayerOptions(layer)
            ?? throw new InvalidDataException($"layer {layer} of '{_directory}' would exceed {FilterParameters.MaxLayerBytes} bytes");
        _layers.Add(FilterLayer.Open(_directory, layer, _log, options, _observer));
    }
}
