using EventFilter.OptionRanges;

namespace EventFilter;

/// <summary>
/// Settings of a <see cref="StreamExistenceFilter"/>. See docs/configuration.md. Defaults and ranges are stated once, in
/// <see cref="FilterOptionRanges"/>, which the hosting package's validator checks too.
/// </summary>
public sealed class StreamExistenceFilterOptions
{
    /// <summary>The file name of the filter inside <see cref="DataDirectory"/>.</summary>
    internal const string DefaultFileName = "stream-existence.filter";

    /// <summary>
    /// Bits per name of a new filter file when <see cref="ExpectedStreams"/> is not set: the smallest k whose rate is at
    /// or below EventStoreDB's at the same setting from 2 bytes per stream up (0.091% against 0.094% at 2, 0.0017% against
    /// 0.0025% at 4), at 2.90% against 2.16% at 1 byte (docs/design.md, "Choosing k").
    /// </summary>
    public const int DefaultK = 8;

    /// <summary>Where the filter file and its checkpoint live.</summary>
    public required string DataDirectory { get; init; }

    /// <summary>The <c>stream-existence-filter-size</c> in bytes; 0 disables the filter. The default value is 256,000,000.</summary>
    public long SizeBytes { get; init; } = FilterOptionRanges.DefaultSizeBytes;

    /// <summary>
    /// The number of streams the filter is sized for, if known: a new filter file (first start, resize, rebuild) then
    /// sets the number of bits per name (k) that gives the fewest false positives at that load, for example 9 at 2 bytes
    /// of <see cref="SizeBytes"/> per stream. Null keeps <see cref="DefaultK"/>, at or below EventStoreDB's rate from 2 to
    /// 4 bytes per stream. An existing file keeps its k. See docs/configuration.md, "Sizing".
    /// </summary>
    /// <value>The default value is <see langword="null"/>.</value>
    public long? ExpectedStreams { get; init; }

    /// <summary>Bits per name for new files when <see cref="ExpectedStreams"/> is not set. The default value is <see cref="DefaultK"/>.</summary>
    internal int K { get; init; } = DefaultK;

    /// <summary>Corrupted fraction of lines above which the filter is rebuilt. The default value is 0.05.</summary>
    public double CorruptionThreshold { get; init; } = FilterFileOptions.DefaultCorruptionThreshold;

    /// <summary>
    /// Share of lines that are all ones (repaired damage, which answers "maybe" for every name) above which the filter
    /// is rebuilt online at its size after catch-up, the old file serving meanwhile; 1 never. The default value is 0.01.
    /// </summary>
    public double AllOnesRebuildThreshold { get; init; } = FilterOptionRanges.DefaultAllOnesRebuildThreshold;

    /// <summary>
    /// During catch-up, checkpoints are at least this many records apart, so an interrupted rebuild resumes. Each one
    /// flushes every page touched since the last, which for a large filter is most of the file, so in a file of
    /// 64 MiB or more they also wait until the catch-up has worked 19 times as long as the last one took: together
    /// they take at most a twentieth of its time (docs/design.md, "Open sequence").
    /// The default value is 16,000,000.
    /// </summary>
    public long CatchUpCheckpointRecords { get; init; } = FilterOptionRanges.DefaultCatchUpCheckpointRecords;

#pragma warning disable RS0030 // A composition root: the clock of a user who composes none.
    /// <summary>
    /// Whether the filter keeps reading the log behind its end after catch-up, for as long as it runs, so that it learns
    /// names other processes append to the same log (docs/design.md, "Following the log"). Then "definitely not" means:
    /// no record below <see cref="StreamExistenceFilter.ReadPosition"/> and none added by this process; a checkpoint
    /// claims no more than the follower has read. Off, the filter reads the log only to catch up at start, and the host's
    /// own adds keep it current: right for a log that one process appends to.
    /// </summary>
    /// <value>The default value is <see langword="false"/>.</value>
    public bool FollowLog { get; init; }

    /// <summary>
    /// How often a following filter reads the log's end; it also wakes at once when the log signals an append
    /// (<see cref="IStreamNameLogSignal"/>), so with a signal this only bounds what a lost one costs.
    /// From 1 ms to 1 minute.
    /// </summary>
    /// <value>The default value is 100 ms.</value>
    public TimeSpan FollowPollInterval { get; init; } = FilterOptionRanges.DefaultFollowPollInterval;

    /// <summary>
    /// The clock a catch-up waits on while the log misbehaves (docs/design.md, "The log's rules"); tests inject a fake one.
    /// </summary>
    /// <value>The default value is <see cref="TimeProvider.System"/>.</value>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;
#pragma warning restore RS0030

    /// <summary>How long a log may break one of its rules, retried, before the violation is reported. The default value is 5 s.</summary>
    internal TimeSpan LogPatience { get; init; } = TimeSpan.FromSeconds(5);

    /// <summary>
    /// How long a ready filter lets its log's end stay behind the host's adds, or its follower stay put while the end
    /// grows, before it reports it (docs/design.md, "Run-time signs"). The default value is 1 minute: longer than a
    /// host's usual transaction, shorter than an operator's patience.
    /// </summary>
    internal TimeSpan LogEndBound { get; init; } = TimeSpan.FromMinutes(1);

    /// <summary>Receives catch-up progress (records, rate, percent, ETA) about once a second and at the end; null for none.</summary>
    internal IProgress<CatchUpProgress>? CatchUpProgress { get; init; }

    /// <summary>
    /// The most threads a catch-up adds a large batch with, its own included (docs/design.md, "Hot path"). Internal: the
    /// <c>scale</c> experiment and tests set it; a host cannot cap it yet. The default value is <see cref="Environment.ProcessorCount"/>.
    /// </summary>
    internal int CatchUpThreads { get; init; } = Environment.ProcessorCount;

    /// <summary>
    /// Whether a catch-up on more than one thread reads the next batch while it adds the current one (docs/design.md,
    /// "Hot path"). False reads between batches, as on one thread: for the <c>scale</c> experiment's same-run comparison.
    /// </summary>
    internal bool CatchUpReadAhead { get; init; } = true;

    /// <summary>
    /// The smallest filter file whose catch-up spaces its checkpoints by their time as well as by records
    /// (<see cref="Durability.CatchUpCheckpoints"/>); a smaller one's checkpoints write at most this much, and go by the
    /// record count alone. Internal: tests set 0 to exercise the timing on small files. The default value is 64 MiB.
    /// </summary>
    internal long CatchUpTimedCheckpointBytes { get; init; } = 64L << 20;

    /// <summary>How a catch-up adds what it reads; the others are for same-run comparisons. The default value is by region.</summary>
    internal Durability.CatchUpAdds CatchUpAdds { get; init; } = Durability.CatchUpAdds.Regions;

    /// <summary>The filter file's path.</summary>
    public string FilterPath => Path.Combine(DataDirectory, DefaultFileName);

    /// <summary>True when the size is 0.</summary>
    internal bool IsDisabled => SizeBytes == 0;

    /// <summary>Journal bytes that start a background fold; null for a quarter of the file. Tests shrink it to fold often.</summary>
    internal long? JournalFoldBytes { get; init; }

    internal FilterFileOptions ToFileOptions(long sizeBytes) => new()
    {
        SizeBytes = sizeBytes,
        SizeCountsFilterBits = true,
        K = ExpectedStreams is { } expected ? FilterFileOptions.KFor(sizeBytes, expected, sizeCountsFilterBits: true) : K,
        CorruptionThreshold = CorruptionThreshold,
        JournalFoldBytes = JournalFoldBytes,
        TimeProvider = TimeProvider,
    };

    /// <summary>Throws <see cref="ArgumentOutOfRangeException"/> or <see cref="ArgumentException"/> naming the first bad value.</summary>
    internal void Validate()
    {
        ArgumentException.ThrowIfNullOrWhiteSpace(DataDirectory);
        if (!FilterOptionRanges.AcceptsExpectedStreams(ExpectedStreams))
        {
            throw FilterOptionRanges.OutOfRange(nameof(ExpectedStreams), ExpectedStreams, FilterOptionRanges.ExpectedStreamsAccepted);
        }

        if (FilterOptionRanges.SizeProblem(SizeBytes) is { } sizeProblem)
        {
            throw new ArgumentOutOfRangeException(nameof(SizeBytes), SizeBytes, $"SizeBytes is {SizeBytes}: {sizeProblem}. Accepted: {FilterOptionRanges.SizeAccepted}.");
        }

        if (!IsDisabled)
        {
            ToFileOptions(SizeBytes).Validate();
        }

        if (!FilterOptionRanges.AcceptsCatchUpCheckpointRecords(CatchUpCheckpointRecords))
        {
            throw FilterOptionRanges.OutOfRange(nameof(CatchUpCheckpointRecords), CatchUpCheckpointRecords, FilterOptionRanges.CatchUpCheckpointRecordsAccepted);
        }

        if (!FilterOptionRanges.AcceptsFollowPollInterval(FollowPollInterval))
        {
            throw FilterOptionRanges.OutOfRange(nameof(FollowPollInterval), FollowPollInterval, FilterOptionRanges.FollowPollIntervalAccepted);
        }

        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(CatchUpThreads);
        ArgumentNullException.ThrowIfNull(TimeProvider);
        if (!FilterOptionRanges.AcceptsAllOnesRebuildThreshold(AllOnesRebuildThreshold))
        {
            throw FilterOptionRanges.OutOfRange(nameof(AllOnesRebuildThreshold), AllOnesRebuildThreshold, FilterOptionRanges.AllOnesRebuildThresholdAccepted);
        }
    }
}
