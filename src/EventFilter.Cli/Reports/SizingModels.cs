namespace EventFilter.Cli.Reports;

/// <summary>
/// The two sizing models side by side. Classic: an unblocked Bloom filter of m bits at its best k,
/// m = -n ln p / (ln 2)^2 and k = (m / n) ln 2. Blocked: our file layout (480-bit lines, all k bits in one line)
/// by <see cref="FalsePositiveModel"/>, which needs somewhat more bytes for the same rate. Both count the bytes of the
/// setting as filter bits, as the stream-existence filter and EventStoreDB do (the file adds 4 bytes per 60 and a header).
/// </summary>
internal static class SizingModels
{
    private const string ClassicModel = "classic: m = -n ln p / (ln 2)^2";
    private const string BlockedModel = "blocked 480-bit lines, FalsePositiveModel";

    public static SizingReport SizeFor(long streams, double targetRate, int k)
    {
        double classicBits = Math.Ceiling(-streams * Math.Log(targetRate) / (Math.Log(2) * Math.Log(2)));
        long classicBytes = (long)Math.Ceiling(classicBits / 8);
        long blockedBytes = FalsePositiveModel.SettingFor(streams, targetRate, k);
        SizingEstimate blocked = blockedBytes < 0 || blockedBytes > FilterFileOptions.MaxSizeBytes
            ? new SizingEstimate(BlockedModel, null, null, k, null)
            : Blocked(streams, blockedBytes, k);
        return new SizingReport(streams, targetRate, null, Classic(streams, classicBytes), blocked);
    }

    /// <exception cref="ArgumentOutOfRangeException">The size is not a valid stream-existence-filter-size.</exception>
    public static SizingReport RateFor(long streams, long sizeBytes, int k) =>
        new(streams, null, sizeBytes, Classic(streams, sizeBytes), Blocked(streams, sizeBytes, k));

    // A classic Bloom filter of m bits with k hashes anywhere: (1 - e^(-kn/m))^k, at its best k.
    private static SizingEstimate Classic(long streams, long bytes)
    {
        double bits = bytes * 8.0;
        int bestK = (int)Math.Max(1, Math.Round(bits / streams * Math.Log(2)));
        return new SizingEstimate(ClassicModel, bytes, bits / streams, bestK, Math.Pow(1 - Math.Exp(-bestK * streams / bits), bestK));
    }

    private static SizingEstimate Blocked(long streams, long bytes, int k)
    {
        long lines = FalsePositiveModel.LinesForSetting(bytes);
        return new SizingEstimate(BlockedModel, bytes, (double)lines * InspectReport.BitsPerLine / streams, k, FalsePositiveModel.Expected(streams, lines, k));
    }
}
