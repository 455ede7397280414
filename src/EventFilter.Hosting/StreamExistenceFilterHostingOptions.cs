using EventFilter.OptionRanges;

namespace EventFilter.Hosting;

/// <summary>
/// Settings of the hosted stream-existence filter, checked when the host starts. Every key, its default, range and
/// spelling in appsettings.json, environment variables and on the command line is in docs/configuration.md.
/// </summary>
public sealed class StreamExistenceFilterHostingOptions
{
    /// <summary>The configuration section the documentation and samples use: <c>StreamExistenceFilter</c>.</summary>
    public const string SectionName = "StreamExistenceFilter";

    /// <summary>
    /// The top-level configuration key <c>stream-existence-filter-size</c>, which the command-line switch
    /// <c>--stream-existence-filter-size 15MB</c> sets. Another spelling of <see cref="StreamExistenceFilterSize"/>:
    /// whichever spelling is in the later configuration source wins (docs/configuration.md, "Precedence").
    /// </summary>
    public const string SizeSwitchKey = "stream-existence-filter-size";

    /// <summary>
    /// The shell-friendly spelling of the size, <c>EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE</c>: an environment
    /// variable a shell can set (no <c>__</c>, no <c>-</c>), read as a top-level configuration key, so a host's
    /// prefixed environment provider reads it with its prefix in front.
    /// </summary>
    internal const string SizeVariableKey = "EVENTFILTER_STREAM_EXISTENCE_FILTER_SIZE";

    /// <summary>
    /// The filter's size in bytes, counted as filter bits as EventStoreDB counts it (the file adds 4 bytes per 60 and a
    /// header), as text so that units work: <c>256000000</c>, <c>256MB</c>, <c>1GiB</c> (rules in <see cref="ByteSize"/>).
    /// <c>0</c> disables the filter; otherwise it must be between <see cref="FilterFileOptions.MinSizeBytes"/> and
    /// <see cref="FilterFileOptions.MaxSizeBytes"/> bytes.
    /// Plan about 1 byte per expected stream for about 2.4% false positives (docs/configuration.md, "Sizing").
    /// </summary>
    /// <value>The default value is <c>256MB</c> (256,000,000 bytes).</value>
    public string StreamExistenceFilterSize { get; set; } = FilterOptionRanges.DefaultSize;

    /// <summary>
    /// The directory that holds the filter file and its checkpoint. Created on start if missing; must be writable.
    /// </summary>
    /// <value>The default value is <see langword="null"/>: it must be set.</value>
    public string? DataDirectory { get; set; }

    /// <summary>How often the filter is flushed and checkpointed at the host's safe position; from 1 second to 1 day.</summary>
    /// <value>The default value is 30 seconds.</value>
    public TimeSpan CheckpointInterval { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The fraction of corrupted lines, strictly between 0 and 1, above which the filter is rebuilt from the log
    /// instead of repaired on start.
    /// </summary>
    /// <value>The default value is 0.05 (5%).</value>
    public double CorruptionThreshold { get; set; } = FilterFileOptions.DefaultCorruptionThreshold;

    /// <summary>
    /// The fraction of lines that are all ones (repaired damage, answering "maybe" for every name), above 0 and at most 1,
    /// beyond which the filter is rebuilt online at its size after catch-up, the old file serving meanwhile; 1 never.
    /// </summary>
    /// <value>The default value is 0.01 (1%).</value>
    public double AllOnesRebuildThreshold { get; set; } = FilterOptionRanges.DefaultAllOnesRebuildThreshold;

    /// <summary>During catch-up, checkpoints are at least this many records apart (and, in a large file, spaced by their cost), so that an interrupted rebuild resumes; at least 1.</summary>
    /// <value>The default value is 16,000,000.</value>
    public long CatchUpCheckpointRecords { get; set; } = FilterOptionRanges.DefaultCatchUpCheckpointRecords;

    /// <summary>
    /// The number of streams the filter is sized for, if known. A new filter file (first start, resize, rebuild) then
    /// sets as many bits per stream (k) as give the fewest false positives at that load: at 2 bytes of size per stream,
    /// k = 9 and 0.087% instead of 0.091%. Unset keeps <see cref="StreamExistenceFilterOptions.DefaultK"/> (8), at or below
    /// EventStoreDB's rate from 2 to 4 bytes per stream. An existing file keeps its k (docs/configuration.md, "Sizing").
    /// </summary>
    /// <value>The default value is <see langword="null"/>: k = 8.</value>
    public long? ExpectedStreams { get; set; }

    /// <summary>
    /// Whether the filter keeps reading the log behind its end after catch-up, for as long as the host runs, so that it
    /// learns the streams other processes append to the same log: on for every process of a host that runs several over
    /// one database, appending or read-only (docs/hosting-guide.md, "Several processes over one log"). A checkpoint then
    /// claims no more than the follower has read.
    /// </summary>
    /// <value>The default value is <see langword="false"/>: one process appends, and its own adds keep the filter current.</value>
    public bool FollowLog { get; set; }

    /// <summary>
    /// How often a following filter reads the log's end, from 1 ms to 1 minute. A log that implements
    /// <see cref="IStreamNameLogSignal"/> wakes it at once; the poll then only bounds what a lost signal costs.
    /// </summary>
    /// <value>The default value is 100 ms.</value>
    public TimeSpan FollowPollInterval { get; set; } = FilterOptionRanges.DefaultFollowPollInterval;

    /// <summary>
    /// How long a following filter may stay behind the log's end before health reports Degraded; from 1 second to 1 day.
    /// </summary>
    /// <value>The default value is 30 seconds.</value>
    public TimeSpan MaxFollowLag { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>The core's options; call only after validation, which guarantees the size parses.</summary>
    internal StreamExistenceFilterOptions ToFilterOptions(TimeProvider timeProvider)
    {
        if (!ByteSize.TryParse(StreamExistenceFilterSize, out long sizeBytes) || DataDirectory is null)
        {
            throw new InvalidOperationException($"{nameof(StreamExistenceFilterHostingOptions)} were used without validation.");
        }

        return new StreamExistenceFilterOptions
        {
            DataDirectory = Path.GetFullPath(DataDirectory),
            SizeBytes = sizeBytes,
            CorruptionThreshold = CorruptionThreshold,
            AllOnesRebuildThreshold = AllOnesRebuildThreshold,
            CatchUpCheckpointRecords = CatchUpCheckpointRecords,
            ExpectedStreams = ExpectedStreams,
            FollowLog = FollowLog,
            FollowPollInterval = FollowPollInterval,
            TimeProvider = timeProvider,
        };
    }
}
