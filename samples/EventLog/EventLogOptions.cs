using EventFilter;

namespace EventLog;

/// <summary>
/// Settings of an <see cref="EventLogEngine"/>, including the measurement switches: the stream-existence filter's size
/// (0 = off), per-file index filters on or off and their rate, the memtable size and merging. See README.md.
/// </summary>
public sealed record EventLogOptions
{
    // The filter's default size is stated once, by the core; a throwaway options instance reads it.
    private static readonly long CoreDefaultFilterSizeBytes = new StreamExistenceFilterOptions { DataDirectory = "" }.SizeBytes;

    /// <summary>Where the log (<c>log/</c>), the index (<c>index/</c>) and the engine's own filter (<c>filter/</c>) live.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>Bytes per log segment file; an append never spans two. Between 64 KiB and 1 GiB. The default value is 256 MiB.</summary>
    public long SegmentSizeBytes { get; init; } = 256L * 1024 * 1024;

    /// <summary>Index entries (events) the memtable holds before it is written as an index file. At least 1. The default value is 1,000,000.</summary>
    public int MemTableEntries { get; init; } = 1_000_000;

    /// <summary>Consecutive index files of one level that are merged into one; 0 never merges. 0 or 2 to 64. The default value is 4.</summary>
    public int IndexMergeThreshold { get; init; } = 4;

    /// <summary>Whether each index file gets its own Bloom filter. The default value is true.</summary>
    public bool PerFileFilters { get; init; } = true;

    /// <summary>The false-positive rate each index file's filter is sized for, strictly between 0 and 0.5. The default value is 0.01.</summary>
    public double PerFileFilterFalsePositiveRate { get; init; } = 0.01;

    /// <summary>
    /// The <c>stream-existence-filter-size</c> in bytes of the filter the engine creates itself; 0 turns it off.
    /// Ignored when a filter is passed to <see cref="EventLogEngine.Start(EventFilter.IStreamExistenceFilter)"/>.
    /// The default value is the core's, <see cref="StreamExistenceFilterOptions.SizeBytes"/> (EventStoreDB's default).
    /// </summary>
    public long StreamExistenceFilterSizeBytes { get; init; } = CoreDefaultFilterSizeBytes;

    /// <summary>How often the engine checkpoints its own filter at the log's durable end; <see cref="TimeSpan.Zero"/> only on demand and at shutdown. Ignored with a host's filter. The default value is 30 seconds.</summary>
    public TimeSpan FilterCheckpointInterval { get; init; } = TimeSpan.FromSeconds(30);

    /// <summary>Streams whose last event number is cached; 0 turns the cache off. The default value is 100,000.</summary>
    public int StreamInfoCacheCapacity { get; init; } = 100_000;

    /// <summary>Appends waiting for the writer before <c>AppendAsync</c> waits too (back-pressure). The default value is 10,000.</summary>
    public int MaxQueuedAppends { get; init; } = 10_000;

    /// <summary>Record bytes after which a group commit stops taking more appends and fsyncs. The default value is 4 MiB.</summary>
    public int MaxGroupCommitBytes { get; init; } = 4 * 1024 * 1024;

#pragma warning disable RS0030 // A composition root: the clock of a user who composes none.
    /// <summary>
    /// The clock: each event's created time, and the own filter's checkpoint timer and catch-up waits. Tests inject a fake
    /// one. The default value is <see cref="TimeProvider.System"/>.
    /// </summary>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;
#pragma warning restore RS0030

    /// <summary>Throws <see cref="ArgumentOutOfRangeException"/> or <see cref="ArgumentException"/> naming the first bad value.</summary>
    public void Validate()
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(DataDirectory);
        ArgumentNullException.ThrowIfNull(TimeProvider);
        Check(SegmentSizeBytes is >= 64 * 1024 and <= 1024L * 1024 * 1024, nameof(SegmentSizeBytes), SegmentSizeBytes, "between 65,536 and 1,073,741,824 bytes");
        Check(MemTableEntries >= 1, nameof(MemTableEntries), MemTableEntries, "at least 1");
        Check(IndexMergeThreshold == 0 || IndexMergeThreshold is >= 2 and <= 64, nameof(IndexMergeThreshold), IndexMergeThreshold, "0 (never merge) or between 2 and 64");
        Check(PerFileFilterFalsePositiveRate is > 0 and < 0.5, nameof(PerFileFilterFalsePositiveRate), PerFileFilterFalsePositiveRate, "strictly between 0 and 0.5");
        Check(
            StreamExistenceFilterSizeBytes == 0 || (StreamExistenceFilterSizeBytes >= FilterFileOptions.MinSizeBytes && StreamExistenceFilterSizeBytes <= FilterFileOptions.MaxSizeBytes),
            nameof(StreamExistenceFilterSizeBytes), StreamExistenceFilterSizeBytes, $"0 (off) or between {FilterFileOptions.MinSizeBytes} and {FilterFileOptions.MaxSizeBytes} bytes");
        Check(FilterCheckpointInterval >= TimeSpan.Zero, nameof(FilterCheckpointInterval), FilterCheckpointInterval, "zero or positive");
        Check(StreamInfoCacheCapacity >= 0, nameof(StreamInfoCacheCapacity), StreamInfoCacheCapacity, "0 (off) or more");
        Check(MaxQueuedAppends >= 1, nameof(MaxQueuedAppends), MaxQueuedAppends, "at least 1");
        Check(MaxGroupCommitBytes >= 4096, nameof(MaxGroupCommitBytes), MaxGroupCommitBytes, "at least 4,096");
    }

    private static void Check(bool valid, string name, object value, string range)
    {
        if (!valid)
        {
            throw new ArgumentOutOfRangeException(name, value, $"{name} must be {range}; got {value}.");
        }
    }
}
