using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One named filter: it owns the locks, the digest log and the checkpoint, and drives its parts: the items held before
/// it has files (<see cref="HeldItems"/>), the chain of layers (<see cref="LayerChain"/>) and the digests waiting for
/// the log (<see cref="UnwrittenDigests"/>). An add checks every layer, puts a new item in its layer and queues its
/// digest; the caller writes the log before the reply (NamedFilter.Log.cs). Three locks, always taken in this order
/// when nested: the checkpoint lock, the write lock, the add lock (docs/daemon-design.md, "Locks").
/// </summary>
internal sealed partial class NamedFilter : IDisposable
{
    /// <summary>
    /// Most items a filter holds before it has files (and never more than its first layer's capacity): they bound the
    /// memory of a new filter and the control log's bytes between ticks, as many items as a checkpoint lets pile up.
    /// </summary>
    public const int MaxHeldItems = 8192;

    // Adds and lookups, so that a DEL can never unmap a layer under a reader. Guards the layers, the held items, the
    // queue, the item count and _log (set once, under this lock; read without it by Volatile.Read). _closed is set
    // under all three locks, so any one of them reads it.
    private readonly Lock _gate = new();
    // Log writes, so that they run in queue order without the add lock (NamedFilter.Log.cs).
    private readonly Lock _writeGate = new();
    // Held by a checkpoint across its fsyncs, and by Close: adds never wait for the disk.
    private readonly Lock _checkpointGate = new();
    // Null while the filter is pending: created under --log-sync periodic, recorded in the control log, and given its
    // directory and log by its first tick after an add, an add past what it holds, a dump, or a start with --log-sync always.
    private DigestLog? _log;
    private readonly string _directory;
    private readonly HeldItems _held;
    private readonly LayerChain _layers;
    private readonly UnwrittenDigests _unwritten = new();
    // Items BF.ADD answered 1 for: in the log, taken or queued for it, or held. The next item's index, so layer
    // routing follows log order.
    private long _items;
    private bool _closed;
    // The log's descriptor, claimed from the filter's create until its log opens and draws it (or the filter goes), so
    // that a pending filter counts in the budget as one with files does (DescriptorBudget). Null when opened with its log.
    private readonly DescriptorClaim? _owedLog;

    // The files it is owed (its log unless opened with it, and its first layer) are split from claim, or claimed unchecked.
    private NamedFilter(string directory, byte[] key, FilterParameters parameters, FilterObserver observer, ControlLog? heldLog, DescriptorClaim? claim, bool logOpen = false)
    {
        _directory = directory;
        Key = key;
        Parameters = parameters;
        _held = new HeldItems(heldLog, (int)Math.Min(MaxHeldItems, parameters.LayerCapacity(0)));
        _owedLog = logOpen ? null : DescriptorClaim.Split(claim, 1);
        _layers = new LayerChain(directory, parameters, observer, DescriptorClaim.Split(claim, DescriptorBudget.DescriptorsPerLayer));
    }

    /// <summary>The filter's directory name (KeyNames).</summary>
    public string Name => Path.GetFileName(_directory);

    /// <summary>The filter's key, exactly as clients send it.</summary>
    public byte[] Key { get; }

    public FilterParameters Parameters { get; }

    public bool IsClosed { get { lock (_gate) { return _closed; } } }

    /// <summary>True once the filter has its directory (a pending filter has none, so a drop has nothing to rename).</summary>
    public bool IsMaterialized { get { lock (_gate) { return _log is not null; } } }

    /// <summary>IsMaterialized without the lock, for the tick, which takes no filter's lock while it switches control files.</summary>
    public bool HasFiles => Volatile.Read(ref _log) is not null;

    /// <summary>
    /// True once the filter held an item, read by the tick without the lock: its items may be in the control file the
    /// tick leaves, so the tick makes its files. Set before any held digest is recorded, and never cleared.
    /// </summary>
    public bool HasHeldItems => _held.Any;

    public static string LogPath(string directory) => FilterDirectory.LogPath(directory);

    /// <summary>
    /// Creates a filter in <paramref name="directory"/> (which must not hold one): its directory and log header, not yet
    /// durable (<see cref="Checkpoint"/> makes them so). No layer file yet: the first add creates layer 0, so a filter
    /// that is created and dropped unused costs a directory and one small file. Its files' descriptors come from
    /// <paramref name="claim"/> (<see cref="DescriptorBudget.PerNewFilter"/>), or are claimed unchecked without one.
    /// </summary>
    public static NamedFilter Create(string directory, byte[] key, FilterParameters parameters, FilterObserver observer, DescriptorClaim? claim)
    {
        var filter = CreatePending(directory, key, parameters, observer, heldLog: null, claim);
        try
        {
            filter.Materialize();
            return filter;
        }
        catch
        {
            filter.Dispose(); // its files and claims go with it
            throw;
        }
    }

    /// <summary>
    /// A filter with no files yet, whose create the caller recorded in the control log: <see cref="Materialize"/> makes
    /// its directory and log. Until then its first items are held, recorded in <paramref name="heldLog"/> (none without one).
    /// Its files' descriptors come from <paramref name="claim"/>, or are claimed unchecked (a start counted them).
    /// </summary>
    public static NamedFilter CreatePending(string directory, byte[] key, FilterParameters parameters, FilterObserver observer, ControlLog? heldLog, DescriptorClaim? claim) =>
        new(directory, key, parameters, observer, heldLog, claim);

    /// <summary>
    /// Opens the filter in <paramref name="directory"/>: its key, its log, then every layer the log's items reach, each
    /// caught up, their descriptors drawn from <paramref name="claim"/> (counted as they open without one: a start counted them).
    /// </summary>
    /// <exception cref="InvalidDataException">The key file or the log's header is damaged.</exception>
    public static NamedFilter Open(string directory, FilterObserver observer, DescriptorClaim? claim = null)
    {
        byte[] key = KeyFileFormat.ReadKey(directory);
        DigestLog log = DigestLog.Open(LogPath(directory), claim);
        var filter = new NamedFilter(directory, key, log.Parameters, observer, heldLog: null, claim, logOpen: true);
        try
        {
            filter.Opened(log, durable: true);
            filter._layers.OpenToEnd(log, claim);
            return filter;
        }
        catch
        {
            filter.Dispose();
            throw;
        }
    }

    /// <summary>Items BF.ADD answered 1 for (BF.CARD, "Number of items inserted").</summary>
    public long Count { get { lock (_gate) { return _closed ? 0 : _items; } } }

    public (long Capacity, long SizeBytes, int Layers, long Items) Describe()
    {
        lock (_gate)
        {
            (long capacity, long sizeBytes, int layers) = _layers.Describe();
            return (capacity, sizeBytes, layers, _items);
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
                results[i] = _held.Contains(digests[i]) || _layers.MightExist(digests[i]);
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
            for (; answered < digests.Length; answered++)
            {
                ulong digest = digests[answered];
                if (_held.Contains(digest) || _layers.MightExist(digest))
                {
                    added[answered] = false;
                    continue;
                }

                if (_log is null)
                {
                    if (_held.HasRoom)
                    {
                        _held.Hold(digest);
                        added[answered] = Queue(digest);
                        continue;
                    }

                    // Past what a pending filter holds, or with --log-sync always: its directory and log, with the
                    // items it held, are made now.
                    MaterializeLocked();
                }

                if (_layers.Add(digest, _items, _log!) is var outcome and not AddOutcome.Done)
                {
                    return outcome;
                }

                added[answered] = Queue(digest);
            }

            return AddOutcome.Done;
        }
    }

    /// <summary>
    /// Gives a pending filter its directory and log, with the items it holds, and the layers they reach (not durable:
    /// <see cref="Checkpoint"/> makes them so).
    /// </summary>
    /// <exception cref="ObjectDisposedException">The filter was dropped.</exception>
    public void Materialize()
    {
        lock (_gate)
        {
            MaterializeLocked();
        }
    }

    /// <summary>
    /// A start gives a pending filter the items the control log recorded for it after its create (already recorded, so
    /// the first tick makes its files).
    /// </summary>
    public void Hold(IEnumerable<ulong> digests)
    {
        lock (_gate)
        {
            foreach (ulong digest in digests)
            {
                _held.Hold(digest);
            }

            _items = _held.Count;
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
            lock (_writeGate)
            {
                lock (_gate)
                {
                    _closed = true;
                    Dispose();
                }
            }
        }
    }

    public void Dispose()
    {
        _layers.Dispose();
        _log?.Dispose();
        _owedLog?.Dispose();
    }

    /// <summary>The item is new: it takes the next index, and its digest waits for the log. True, its answer.</summary>
    private bool Queue(ulong digest)
    {
        _unwritten.Add(digest);
        _items++;
        return true;
    }

    /// <summary>Under the add lock: restored items take the next indexes (their digests go to the log directly).</summary>
    private void CountRestored(int items) => _items += items;

    /// <summary>The log once <see cref="Publish"/> set it, read without the lock.</summary>
    private DigestLog? PublishedLog => Volatile.Read(ref _log);

    /// <summary>The opened log counts the items and is published last, for readers that take no lock.</summary>
    private void Publish(DigestLog log)
    {
        _items = log.Records;
        Volatile.Write(ref _log, log);
    }
}
