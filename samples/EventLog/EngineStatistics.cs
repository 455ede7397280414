namespace EventLog;

/// <summary>
/// A snapshot of what an <see cref="EventLogEngine"/> has done since it was opened: the counters the measurements read.
/// </summary>
/// <param name="DurableEnd">The log's durable end (its size in bytes).</param>
/// <param name="GroupCommits">fsyncs of the log.</param>
/// <param name="AppendsWritten">Appends written (each one or more events).</param>
/// <param name="IndexFileReads">Lookups that read entries of an index file: one per file per lookup that got past the file's own filter.</param>
/// <param name="IndexFileFilterSkips">Index files skipped because their own Bloom filter said "definitely not".</param>
/// <param name="StreamFilterNegatives">Last-event-number lookups that the stream-existence filter answered "definitely new", touching no index at all.</param>
/// <param name="CacheHits">Last-event-number lookups answered by the stream-info cache.</param>
/// <param name="CacheMisses">Last-event-number lookups the cache could not answer.</param>
/// <param name="IndexFiles">Index files now.</param>
/// <param name="MemTableEntries">Index entries in memory now (active and sealed memtables).</param>
/// <param name="IndexFlushes">Memtables written as index files.</param>
/// <param name="IndexMerges">Merges of index files.</param>
public readonly record struct EngineStatistics(
    long DurableEnd,
    long GroupCommits,
    long AppendsWritten,
    long IndexFileReads,
    long IndexFileFilterSkips,
    long StreamFilterNegatives,
    long CacheHits,
    long CacheMisses,
    int IndexFiles,
    long MemTableEntries,
    long IndexFlushes,
    long IndexMerges);
