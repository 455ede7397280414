using EventFilter.Cli.Output;
using EventFilter.Integrity;

namespace EventFilter.Cli.Reports;

/// <summary>What `repair` did: mismatched lines rewritten as all ones with a valid checksum, and the journal folded into the file.</summary>
internal sealed record RepairReport(
    string Path,
    long LinesChecked,
    long RepairedLines,
    IReadOnlyList<long> FirstRepairedLines,
    long AllOnesLines,
    long CorruptedLines,
    double CorruptedFraction,
    double Threshold,
    bool RebuildRequired,
    string Status,
    int ExitCode,
    JournalReport FoldedJournal)
{
    public const string Repaired = "repaired";
    public const string NothingToRepair = "nothing-to-repair";

    /// <param name="path">The filter file.</param>
    /// <param name="result">The repairing scan, judged against the operator's threshold.</param>
    /// <param name="journal">The journal it folded into the file (replayed before the scan).</param>
    public static RepairReport From(string path, VerificationResult result, JournalReport journal)
    {
        string status = result.RebuildRequired ? IntegrityVerdict.RebuildRequired : result.RepairedLines > 0 ? Repaired : NothingToRepair;
        int exitCode = result.RebuildRequired ? ExitCodes.Failure : ExitCodes.Success;
        return new RepairReport(
            path,
            result.LinesChecked,
            result.RepairedLines,
            result.FirstBadLines,
            result.AllOnesLines,
            result.CorruptedLines,
            result.CorruptedFraction,
            result.Threshold,
            result.RebuildRequired,
            status,
            exitCode,
            journal);
    }

    public void WriteText(TextWriter output)
    {
        output.WriteLine($"file             {Path}");
        output.WriteLine($"lines checked    {TextFormat.Count(LinesChecked)}");
        output.WriteLine(RepairedLines == 0
            ? "repaired         0 lines"
            : $"repaired         {TextFormat.Count(RepairedLines)} lines set to all ones and flushed (first: {string.Join(", ", FirstRepairedLines)})");
        output.WriteLine($"journal          {FoldedJournal.DescribeFolded()}");
        output.WriteLine($"all-ones         {TextFormat.Count(AllOnesLines)} lines, {TextFormat.Percent(CorruptedFraction)} of the file (threshold {TextFormat.Percent(Threshold)})");
        output.WriteLine($"result           {Advice()}");
    }

    private string Advice() => Status switch
    {
        Repaired => "repaired: those lines now answer \"maybe\" for every name, which adds false positives but never a false negative",
        NothingToRepair => "nothing to repair: every line's checksum matches",
        _ => $"rebuild required: more than {TextFormat.Percent(Threshold)} of lines are all ones; stop the server, delete '{Path}', its '.checkpoint' and any '.journal.N' files, start the server",
    };
}
