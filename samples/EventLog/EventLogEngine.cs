using EventFilter.Storage;
using EventLog.Caching;
using EventLog.Errors;
using EventLog.Index;
using EventLog.Segments;
using EventLog.Writing;

using EventFilter;

namespace EventLog;

/// <summary>
/// An append-only event log: streams of events with optimistic concurrency, stored in segment files with group commit,
/// indexed by an LSM stream index (memtable plus sorted index files, each with its own Bloom filter), with the
/// stream-existence filter in front so that appends to new streams skip the index. It is also the filter's
/// <see cref="IStreamNameLog"/>. Lifecycle: <see cref="OpenAsync"/> (recover, rebuild the index), then
/// <see cref="Start()"/> (appends), then <see cref="StopAsync"/> and <see cref="DisposeAsync"/>. Reads work from open
/// until disposal. See samples/EventLog/README.md.
/// </summary>
/// <remarks>
/// Durability: a task returned by <c>AppendAsync</c> completes only after the records were written and the segment
/// fsynced; a crash before that may keep or lose the append, but never part of it.
/// </remarks>
public sealed partial class EventLogEngine : IStreamNameLog, IAsyncDisposable
{
    /// <summary>The engine's lock file in its data directory, held while it is open (one engine per directory).</summary>
    internal const string LockFileName = "eventlog.lock";

    private const int Opened = 0, Started = 1, Stopped = 2, Disposed = 3;

    private readonly string _root;
    private readonly LockFile _directoryLock;
    private readonly SegmentSet _segments;
    private readonly LogReader _reader;
    private readonly StreamIndex _index;
    private readonly IndexMaintenance _maintenance;
    private readonly StreamInfoCache _cache;
    private readonly StreamVersions _versions;
    private GroupCommitWriter? _writer;
    private int _state = Opened;

    private EventLogEngine(EventLogOptions options, string root, LockFile directoryLock, SegmentSet segments, StreamIndex index, LogRecovery logRecovery, IndexRecovery indexRecovery)
    {
        Options = options;
        _root = root;
        _directoryLock = directoryLock;
        _segments = segments;
        _reader = new LogReader(segments);
        _index = index;
        _maintenance = new IndexMaintenance(index, options.IndexMergeThreshold);
        _cache = new StreamInfoCache(options.StreamInfoCacheCapacity);
        _versions = new StreamVersions(_cache, index);
        LogRecovery = logRecovery;
        IndexRecovery = indexRecovery;
    }

    /// <summary>The settings the engine was opened with.</summary>
    public EventLogOptions Options { get; }

    /// <summary>What opening the log found (segments, end, a torn tail cut off).</summary>
    public LogRecovery LogRecovery { get; }

    /// <summary>What opening the index found (files kept or dropped, records replayed from the log).</summary>
    public IndexRecovery IndexRecovery { get; private set; }

    /// <summary>Just past the last durable record: the log's size in bytes. (<see cref="IStreamNameLog.EndPosition"/>.)</summary>
    public long EndPosition => _segments.DurableEnd;

    /// <summary>For tests: fails a step of the writer's file work as a full disk would (<see cref="SegmentSet.Faults"/>).</summary>
    internal Func<WriteStep, int, int?>? DiskFaults
    {
        set => _segments.Faults = value;
    }

    /// <summary>Why the engine stopped taking appends (a failed write, fsync or index flush); null while healthy.</summary>
    public Exception? Failure => _writer?.Failure ?? _maintenance.Failure;

    /// <summary>Counters for the measurements: index-file reads and skips, filter negatives, cache, commits.</summary>
    public EngineStatistics Statistics => new(
        _segments.DurableEnd,
        _writer?.Commits ?? 0,
        _writer?.Appends ?? 0,
        _index.Counters.FileReads,
        _index.Counters.FilterSkips,
        _versions.FilterNegatives,
        _cache.Hits,
        _cache.Misses,
        _index.FileCount,
        _index.MemTableEntries,
        _index.Counters.Flushes,
        _index.Counters.Merges);

    /// <summary>
    /// Opens (or creates) the engine's files: recovers the log (cutting a torn tail), opens the index files (dropping
    /// them all if any is damaged) and replays the log past them into the memtable. Reads work at once; call
    /// <see cref="Start()"/> to take appends.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">An option is out of range; nothing was touched.</exception>
    /// <exception cref="CorruptLogException">A segment other than the last is damaged, or segments are missing.</exception>
    /// <exception cref="DirectoryInUseException">Another engine has the directory open; nothing was touched.</exception>
    public static async Task<EventLogEngine> OpenAsync(EventLogOptions options, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(options);
        options.Validate();
        string root = Path.GetFullPath(options.DataDirectory);

        // Before anything is opened: recovery cuts a torn tail, which would cut off a live engine's append in flight. Two
        // engines would also interleave their appends.
        Directory.CreateDirectory(root);
        string lockPath = Path.Combine(root, LockFileName);
        LockFile directoryLock = LockFile.TryAcquire(lockPath, out LockFile? acquired, out IOException? held)
            ? acquired
            : throw new DirectoryInUseException(root, lockPath, "event log engine", held);
        SegmentSet segments;
        LogRecovery logRecovery;
        try
        {
            segments = LogOpener.Open(Path.Combine(root, "log"), out logRecovery);
        }
        catch
        {
            directoryLock.Dispose();
            throw;
        }

        EventLogEngine engine;
        try
        {
            var filters = new PerFileFilters(options.PerFileFilters, options.PerFileFilterFalsePositiveRate);
            string indexDirectory = Path.Combine(root, "index");
            IndexFile[] files = IndexLoader.Load(indexDirectory, filters, logRecovery.End, out IndexRecovery indexRecovery, out long nextFileId);
            var index = new StreamIndex(indexDirectory, filters, new LogReader(segments), files, indexRecovery.IndexedTo, nextFileId);
            engine = new EventLogEngine(options, root, directoryLock, segments, index, logRecovery, indexRecovery);
        }
        catch
        {
            segments.Dispose();
            directoryLock.Dispose();
            throw;
        }

        try
        {
            long replayed = await IndexRebuild.ReplayAsync(
                segments, engine._index, engine._maintenance, options.MemTableEntries, engine.IndexRecovery.IndexedTo, logRecovery.End, cancellationToken).ConfigureAwait(false);
            engine.IndexRecovery = engine.IndexRecovery with { ReplayedRecords = replayed };
            return engine;
        }
        catch
        {
            await engine.DisposeAsync().ConfigureAwait(false);
            throw;
        }
    }
}
