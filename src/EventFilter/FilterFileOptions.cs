using System.Diagnostics.CodeAnalysis;
using EventFilter.Format;
using EventFilter.OptionRanges;

namespace EventFilter;

/// <summary>How to open or create a filter file.</summary>
public sealed class FilterFileOptions
{
    /// <summary>
    /// The default bits per name of a <see cref="FilterFile"/>: within 2% of the best rate at 8 bits per name and 27% below
    /// k=5 at 16. The stream-existence filter's own default is <see cref="StreamExistenceFilterOptions.DefaultK"/>.
    /// </summary>
    public const int DefaultK = 6;

    /// <summary>The largest k a file can hold.</summary>
    public const int MaxK = FilterHeader.MaxK;

    /// <summary>The largest k chosen from an expected number of names: the most that a lookup tests in one vector pass.</summary>
    internal const int MaxChosenK = Blocked.VectorProbes.MaxK;

    /// <summary>The most lines a key's bits may spread over (docs/file-format.md, "Probes").</summary>
    public const int MaxLinesPerKey = 4;

    /// <summary>The default corruption threshold: above this fraction of corrupted lines the filter is rebuilt.</summary>
    public const double DefaultCorruptionThreshold = 0.05;

    /// <summary>The smallest size: one data line and the header line (docs/file-format.md).</summary>
    public const long MinSizeBytes = FilterGeometry.MinSizeBytes;

    /// <summary>
    /// The largest <c>stream-existence-filter-size</c>: 2^32 - 1 lines of 60 bytes of filter bits (240 GiB) on a 64-bit
    /// process. A file sized by its length may reach 256 GiB (docs/file-format.md, "Size").
    /// </summary>
    public static long MaxSizeBytes => FilterGeometry.MaxFilterBitsSizeBytes;

    /// <summary>The <c>stream-existence-filter-size</c> in bytes. Must be in [<see cref="MinSizeBytes"/>, <see cref="MaxSizeBytes"/>].</summary>
    public required long SizeBytes { get; init; }

    /// <summary>Bits per name, for a new file; an existing file keeps the k in its header. The default value is 6.</summary>
    public int K { get; init; } = DefaultK;

    /// <summary>
    /// The lines each key's k bits are divided over, for a new file; an existing file keeps the count in its header. One
    /// line is one cache miss per lookup; more lines need fewer bits per key at low error rates (docs/design.md,
    /// "Lines per key"). Must be in [1, <see cref="MaxLinesPerKey"/>], at most <see cref="K"/> and at most the file's data
    /// lines. The default value is 1.
    /// </summary>
    public int LinesPerKey { get; init; } = 1;

    /// <summary>
    /// Whether <see cref="SizeBytes"/> counts filter bits, for a new file: then every 60 bytes of it are one line and the
    /// file is 64/60 of it plus the header, as EventStoreDB counts its setting (docs/file-format.md, "Size"). The
    /// stream-existence filter sets it; an existing file keeps the meaning in its header. The default value is false:
    /// the size is the file's length.
    /// </summary>
    internal bool SizeCountsFilterBits { get; init; }

    /// <summary>Seed of the key hash, for a new file. The default value is 0.</summary>
    internal ulong Seed { get; init; }

    /// <summary>Corrupted fraction of lines above which open reports that a rebuild is needed. The default value is 0.05.</summary>
    public double CorruptionThreshold { get; init; } = DefaultCorruptionThreshold;

    /// <summary>Receives the number of lines verified so far while opening; null for none.</summary>
    internal IProgress<long>? VerifyProgress { get; init; }

    /// <summary>
    /// Journal bytes that start a background fold into the main file; null for a quarter of the file's length. A fold
    /// writes at most the file, so this bounds its cost to 4 bytes per journal byte (docs/design.md, "Changed-line journal").
    /// </summary>
    internal long? JournalFoldBytes { get; init; }

    /// <summary>
    /// Whether <see cref="FilterFile.Create"/> fsyncs the new file and its directory before returning. The default value
    /// is true. False is for a caller that rebuilds a missing or torn file from its own log (eventfilterd's layers): after
    /// power loss the file may then be missing, zero-length or zero-filled, which the open sequence rebuilds
    /// (docs/design.md, "Open sequence"). A checkpoint still fsyncs everything it vouches for.
    /// </summary>
    internal bool SyncOnCreate { get; init; } = true;

#pragma warning disable RS0030 // A composition root: the clock of a user who composes none. FilterFile.OpenExisting uses it too.
    /// <summary>The clock a flush's and a fold's <see cref="FlushResult.Duration"/> is measured on; tests inject a fake one.</summary>
    /// <value>The default value is <see cref="TimeProvider.System"/>.</value>
    public TimeProvider TimeProvider { get; init; } = TimeProvider.System;
#pragma warning restore RS0030

    /// <summary>Options with no value set but the required size; every other has its default.</summary>
    public FilterFileOptions()
    {
    }

    /// <summary>A copy of <paramref name="source"/>, every setting included: the one place that lists them all.</summary>
    [SetsRequiredMembers]
    internal FilterFileOptions(FilterFileOptions source)
    {
        SizeBytes = source.SizeBytes;
        K = source.K;
        LinesPerKey = source.LinesPerKey;
        SizeCountsFilterBits = source.SizeCountsFilterBits;
        Seed = source.Seed;
        CorruptionThreshold = source.CorruptionThreshold;
        VerifyProgress = source.VerifyProgress;
        JournalFoldBytes = source.JournalFoldBytes;
        SyncOnCreate = source.SyncOnCreate;
        TimeProvider = source.TimeProvider;
    }

    /// <summary>A copy that creates without fsync (<see cref="CheckpointedFilterFile.Open"/>).</summary>
    internal FilterFileOptions WithoutSyncOnCreate() => new(this) { SyncOnCreate = false };

    /// <summary>
    /// The k with the lowest expected false-positive rate for <paramref name="expectedNames"/> names in a file of
    /// <paramref name="sizeBytes"/>, at most <see cref="MaxChosenK"/> (docs/design.md, "Choosing k").
    /// </summary>
    internal static int KFor(long sizeBytes, long expectedNames, bool sizeCountsFilterBits) =>
        FalsePositiveModel.BestK(expectedNames, FilterGeometry.For(sizeBytes, sizeCountsFilterBits).LineCount, MaxChosenK);

    /// <summary>The geometry a new file of these options has.</summary>
    internal FilterGeometry Geometry => FilterGeometry.For(SizeBytes, SizeCountsFilterBits);

    /// <summary>Throws <see cref="ArgumentOutOfRangeException"/> naming the first bad value.</summary>
    internal void Validate()
    {
        FilterGeometry geometry = Geometry;
        if (K < 1 || K > FilterHeader.MaxK)
        {
            throw new ArgumentOutOfRangeException(nameof(K), K, $"K must be between 1 and {FilterHeader.MaxK}; got {K}.");
        }

        if (LinesPerKey < 1 || LinesPerKey > MaxLinesPerKey || LinesPerKey > K || LinesPerKey > geometry.LineCount)
        {
            throw new ArgumentOutOfRangeException(nameof(LinesPerKey), LinesPerKey, $"LinesPerKey must be between 1 and {MaxLinesPerKey}, at most K ({K}) and at most the file's {geometry.LineCount} data lines; got {LinesPerKey}.");
        }

        if (!FilterOptionRanges.AcceptsCorruptionThreshold(CorruptionThreshold))
        {
            throw FilterOptionRanges.OutOfRange(nameof(CorruptionThreshold), CorruptionThreshold, FilterOptionRanges.CorruptionThresholdAccepted);
        }

        ArgumentNullException.ThrowIfNull(TimeProvider);
        if (JournalFoldBytes is <= 0)
        {
            throw new ArgumentOutOfRangeException(nameof(JournalFoldBytes), JournalFoldBytes, "JournalFoldBytes must be positive.");
        }
    }
}
