namespace EventLog.Index;

/// <summary>What the index has done, counted lock-free for the measurement switches; see <c>EngineStatistics</c>.</summary>
internal sealed class IndexCounters
{
    private long _fileReads;
    private long _filterSkips;
    private long _flushes;
    private long _merges;

    /// <summary>Lookups that read an index file's entries (at least one block).</summary>
    public long FileReads => Interlocked.Read(ref _fileReads);

    /// <summary>Lookups that skipped an index file because its own Bloom filter said "definitely not".</summary>
    public long FilterSkips => Interlocked.Read(ref _filterSkips);

    /// <summary>Memtables written as index files.</summary>
    public long Flushes => Interlocked.Read(ref _flushes);

    /// <summary>Merges of index files.</summary>
    public long Merges => Interlocked.Read(ref _merges);

    public void FileRead() => Interlocked.Increment(ref _fileReads);

    public void FilterSkip() => Interlocked.Increment(ref _filterSkips);

    public void Flushed() => Interlocked.Increment(ref _flushes);

    public void Merged() => Interlocked.Increment(ref _merges);
}
