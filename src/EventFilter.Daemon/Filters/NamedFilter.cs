using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One named filter: its digest log and its chain of layers. An add checks every layer, puts a new item in the last
/// one (growing the chain when that is full, as RedisBloom does), and appends its digest to the log before the reply
/// is written. One lock per filter for adds and lookups (so a DEL can never unmap a layer under a reader), and one for
/// checkpoints, which hold it across their fsyncs so that adds do not wait for the disk (NamedFilter.Durability.cs).
/// </summary>
internal sealed partial class NamedFilter : IDisposable
{
    private readonly Lock _gate = new();
    // Null while the filter is pending: created under --log-sync periodic, recorded in the control log, and given its
    // directory and log by its first add (Materialize), or by a start with --log-sync always.
    private DigestLog? _log;
    private readonly FilterParameters _parameters;
    private readonly string _directory;
    private readonly FilterObserver _observer;
    // Told when a pending filter's files are made (FilterStore: the next tick fsyncs them).
    private readonly Action? _filesMade;
    // Where a pending filter's first items are recorded while they are held (NamedFilter.Pending.cs); null: none are held.
    private readonly IHeldItemsLog? _heldLog;
    private readonly List<FilterLayer> _layers = [];
    // Digests added but not yet written to the log (WriteLog). Counted as items, so layer routing follows log order.
    private readonly UnwrittenDigests _unwritten = new();
    private bool _closed;

    private NamedFilter(string directory, byte[] key, FilterParameters parameters, DigestLog? log, FilterObserver observer, Action? filesMade = null, IHeldItemsLog? heldLog = null)
    {
        _heldLog = heldLog;
        _directory = directory;
        Key = key;
        _parameters = parameters;
        _log = log;
        _observer = observer;
        _filesMade = filesMade;
    }

    /// <summary>The filter's directory name (KeyNames).</summary>
    public string Name => Path.GetFileName(_directory);

    /// <summary>The filter's key, exactly as clients send it.</summary>
    public byte[] Key { get; }

    public bool IsClosed { get { lock (_gate) { return _closed; } } }

    public FilterParameters Parameters => _parameters;

    /// <summary>IsMaterialized without the lock, for the tick, which holds a lock that adds take under this one's.</summary>
    public bool HasFiles => Volatile.Read(ref _log) is not null;

    public static string LogPath(string directory) => Path.Combine(directory, DataLayout.DigestLogFile);

    /// <summary>
    /// Creates a filter in <paramref name="directory"/> (which must not hold one): its directory and log header, not yet
    /// durable (<see cref="Checkpoint"/> makes them so). No layer file yet: the first add creates layer 0, so a filter
    /// that is created and dropped unused costs a directory and one small file.
    /// </summary>
    public static NamedFilter Create(string directory, byte[] key, FilterParameters parameters, FilterObserver observer)
    {
        var filter = CreatePending(directory, key, parameters, observer);
        filter.Materialize();
        return filter;
    }

    /// <summary>Opens the filter in <paramref name="directory"/>: its key, its log, then every layer the log's items reach, each caught up.</summary>
    /// <exception cref="InvalidDataException">The key file or the log's header is damaged.</exception>
    public static NamedFilter Open(string directory, FilterObserver observer)
    {
        byte[] key = KeyFileFormat.ReadKey(directory);
        DigestLog log = DigestLog.Open(LogPath(directory));
        var filter = new NamedFilter(directory, key, log.Parameters, log, observer);
        try
        {
            filter.OpenLayersToEnd();
            filter.LogOpened(log.EndPosition, durable: true);
            return filter;
        }
        catch
        {
            filter.Dispose();
            throw;
        }
    }

    /// <summary>Items BF.ADD answered 1 for (BF.CARD, "Number of items inserted").</summary>
    public long Count { get { lock (_gate) { return _closed ? 0 : Items; } } }

    // A pending filter's items are the ones it holds, the queued ones among them.
    private long Items => _log is null ? HeldCount : _log.Records + _unwritten.Count;

    public (long Capacity, long SizeBytes, int Layers, long Items) Describe()
    {
        lock (_gate)
        {
            if (_layers.Count == 0)
            {
                // Layer 0 exists from BF.RESERVE on, as in RedisBloom, though its file waits for the first add.
                return (Parameters.LayerCapacity(0), Parameters.LayerOptions(0)?.SizeBytes ?? 0, 1, Items);
            }

            return (_layers.Sum(l => l.Capacity), _layers.Sum(l => l.SizeBytes), _layers.Count, Items);
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
    /// Adds each digest, answering true when it was new; stops at the first one a full filter refuses. The caller
    /// must call <see cref="WriteLog"/> (and with --log-sync always <see cref="SyncLog"/>) before it replies.
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

            _unwritten.Reserve(digests.Length);
            AddOutcome outcome = AddOutcome.Done;
            for (; answered < digests.Length; answered++)
            {
                ulong digest = digests[answered];
                if (MightExistLocked(digest))
                {
                    added[answered] = false;
                    continue;
                }

                if (_layers.Count == 0)
                {
                    if (TryHold(digest))
                    {
                        added[answered] = true;
                        continue;
                    }

                    // Past what a pending filter holds, or with --log-sync always: its directory and log, with the items
                    // it held, and layer 0's file are made now.
                    MaterializeLocked();
                    OpenLayer(0);
                }

                if (Items >= _layers[^1].Start + _layers[^1].Capacity && (outcome = Grow()) != AddOutcome.Done)
                {
                    break;
                }

                _layers[^1].File.AddHash(digest);
                _unwritten.Add(digest);
                added[answered] = true;
            }

            return outcome;
        }
    }

    /// <summary>Closes the files; with <paramref name="checkpoint"/>, after a last checkpoint (a clean stop).</summary>
    public void Close(bool checkpoint)
    {
        if (checkpoint)
        {
            Checkpoint(final: true);
        }

        lock (_checkpointGate)
        {
            lock (_gate)
            {
                _closed = true;
                Dispose();
            }
        }
    }

    public void Dispose()
    {
        foreach (FilterLayer layer in _layers)
        {
            layer.Dispose();
        }

        _layers.Clear();
        _log?.Dispose();
    }

    /// <summary>Makes the files of a pending filter; <paramref name="tell"/> the store, unless its tick is the caller.</summary>
    private void MaterializeLocked(bool tell = true)
    {
        ObjectDisposedException.ThrowIf(_closed, this);
        if (_log is not null)
        {
            return;
        }

        if (HeldCount > 0)
        {
            _log = CreateLogOfHeld(); // only a hex-named filter holds items: a long key's has its files from its create
        }
        else
        {
            Directory.CreateDirectory(_directory);
            if (!KeyNames.IsHexNamed(Key.Length))
            {
                // Before the log, and fsynced: a log whose key is not on the disk would be a filter without a name.
                WriteKeyFile(Path.Combine(_directory, DataLayout.KeyFile), Key);
            }

            _log = DigestLog.Create(LogPath(_directory), _parameters);
        }

        LogOpened(_log.EndPosition, durable: false);
        if (tell)
        {
            _filesMade?.Invoke();
        }
    }

    private bool MightExistLocked(ulong digest)
    {
        if (IsHeld(digest))
        {
            return true;
        }

        foreach (FilterLayer layer in _layers)
        {
            if (layer.File.MightExistHash(digest))
            {
                return true;
            }
        }

        return false;
    }

    /// <summary>Opens each layer the log's items reach (none for a log without items).</summary>
    private void OpenLayersToEnd()
    {
        long records = _log!.Records;
        while (records > 0 && (_layers.Count == 0 || _layers[^1].Start + _layers[^1].Capacity < records))
        {
            OpenLayer(_layers.Count);
        }
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

        // No fsync for a new layer file: the digest log rebuilds one that power loss left missing or torn, and a
        // checkpoint fsyncs whatever it vouches for (docs/daemon-design.md, "Durability").
        _layers.Add(FilterLayer.Open(_directory, layer, _log!, options, _observer, syncOnCreate: false));
    }
}
