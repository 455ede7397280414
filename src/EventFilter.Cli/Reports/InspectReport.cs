using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>
/// Everything `inspect` knows about a filter file. Nominal capacity is one stream per byte of the configured size
/// (8 bits per stream): the sizing rule of thumb the server's default follows (256,000,000 bytes for 256M streams).
/// </summary>
internal sealed record InspectReport(
    string Path,
    int Version,
    long SizeBytes,
    long FileLength,
    long Lines,
    int K,
    int LinesPerKey,
    ulong Seed,
    Guid FileId,
    long BitsSet,
    long TotalBits,
    double FillRatio,
    long EstimatedStreams,
    double EstimatedFalsePositiveRate,
    long NominalCapacityStreams,
    double FalsePositiveRateAtNominalCapacity,
    long MismatchedLines,
    long AllOnesLines,
    long CorruptedLines,
    double CorruptedFraction,
    IReadOnlyList<long> FirstBadLines,
    double Threshold,
    string Integrity,
    CheckpointReport? Checkpoint,
    JournalReport Journal)
{
    /// <summary>Streams per byte of configured size at nominal capacity.</summary>
    public const int NominalStreamsPerByte = 1;

    /// <summary>The bytes of a line and the filter bits it holds (docs/file-format.md, "Lines").</summary>
    public const int LineBytes = 64, BitsPerLine = 480;

    public static InspectReport From(string path, FilterHeader header, FilterStatistics statistics, VerificationResult verification, CheckpointReport? checkpoint, JournalReport journal)
    {
        long nominal = header.SizeBytes * NominalStreamsPerByte;
        return new InspectReport(
            path,
            header.Version,
            header.SizeBytes,
            (header.LineCount + 1L) * LineBytes,
            header.LineCount,
            header.K,
            header.LinesPerKey,
            header.Seed,
            header.FileId,
            (long)Math.Round(statistics.FillRatio * header.LineCount * BitsPerLine),
            (long)header.LineCount * BitsPerLine,
            statistics.FillRatio,
            (long)Math.Round(statistics.EstimatedNames),
            statistics.EstimatedFalsePositiveRate,
            nominal,
            FalsePositiveModel.Expected(nominal, header.LineCount, header.K, header.LinesPerKey),
            verification.MismatchedLines,
            verification.AllOnesLines,
            verification.CorruptedLines,
            verification.CorruptedFraction,
            verification.FirstBadLines,
            verification.Threshold,
            IntegrityVerdict.Status(verification),
            checkpoint,
            journal);
    }

    public void WriteText(TextWriter output)
    {
        output.WriteLine($"file             {Path}");
        output.WriteLine($"format           version {Version}, k {K}{(LinesPerKey > 1 ? $" over {LinesPerKey} lines per name" : "")}, seed {Seed}, file id {FileId}");
        output.WriteLine($"size             {TextFormat.Bytes(SizeBytes)}: {TextFormat.Count(Lines)} lines of 64 bytes after the header");
        output.WriteLine($"bits set         {TextFormat.Count(BitsSet)} of {TextFormat.Count(TotalBits)} ({TextFormat.Percent(FillRatio)})");
        output.WriteLine($"streams          ~{TextFormat.Count(EstimatedStreams)} estimated; nominal capacity {TextFormat.Count(NominalCapacityStreams)} (1 per byte)");
        output.WriteLine($"false positives  {TextFormat.Percent(EstimatedFalsePositiveRate)} now; {TextFormat.Percent(FalsePositiveRateAtNominalCapacity)} at nominal capacity");
        output.WriteLine($"integrity        {Integrity}: {TextFormat.Count(MismatchedLines)} mismatched, {TextFormat.Count(AllOnesLines)} all-ones lines; {TextFormat.Percent(CorruptedFraction)} corrupted (rebuild above {TextFormat.Percent(Threshold)})");
        if (FirstBadLines.Count > 0)
        {
            output.WriteLine($"first bad lines  {string.Join(", ", FirstBadLines)}");
        }

        output.WriteLine($"checkpoint       {CheckpointReport.Describe(Checkpoint)}");
        output.WriteLine($"journal          {Journal.Describe()}");
    }
}
