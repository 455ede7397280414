using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>What `verify` found: the header was valid (or it would have failed), and this is every line's state.</summary>
internal sealed record VerifyReport(
    string Path,
    long SizeBytes,
    long Lines,
    int K,
    Guid FileId,
    long LinesChecked,
    long MismatchedLines,
    long AllOnesLines,
    long CorruptedLines,
    double CorruptedFraction,
    double Threshold,
    IReadOnlyList<long> FirstBadLines,
    bool RebuildRequired,
    string Integrity,
    CheckpointReport? Checkpoint,
    JournalReport Journal)
{
    public static VerifyReport From(string path, FilterHeader header, VerificationResult result, CheckpointReport? checkpoint, JournalReport journal) => new(
        path,
        header.SizeBytes,
        header.LineCount,
        header.K,
        header.FileId,
        result.LinesChecked,
        result.MismatchedLines,
        result.AllOnesLines,
        result.CorruptedLines,
        result.CorruptedFraction,
        result.Threshold,
        result.FirstBadLines,
        result.RebuildRequired,
        IntegrityVerdict.Status(result),
        checkpoint,
        journal);

    public void WriteText(TextWriter output, string advice)
    {
        output.WriteLine($"file             {Path}");
        output.WriteLine($"header           valid: {TextFormat.Bytes(SizeBytes)}, k {K}, file id {FileId}");
        output.WriteLine($"lines checked    {TextFormat.Count(LinesChecked)}");
        output.WriteLine($"mismatched       {TextFormat.Count(MismatchedLines)}{(FirstBadLines.Count > 0 ? $" (first: {string.Join(", ", FirstBadLines)})" : string.Empty)}");
        output.WriteLine($"all-ones         {TextFormat.Count(AllOnesLines)}");
        output.WriteLine($"corrupted        {TextFormat.Count(CorruptedLines)} lines, {TextFormat.Percent(CorruptedFraction)} (threshold {TextFormat.Percent(Threshold)})");
        output.WriteLine($"checkpoint       {CheckpointReport.Describe(Checkpoint)}");
        output.WriteLine($"journal          {Journal.Describe()}");
        output.WriteLine($"result           {advice}");
    }
}
