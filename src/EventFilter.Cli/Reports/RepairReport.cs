using System.Text.Json.Serialization;
using EventFilter.Cli.Output;

namespace EventFilter.Cli.Reports;

/// <summary>What `repair` did: mismatched lines rewritten as all ones with a valid checksum, and the journal folded into the file.</summary>
/// <param name="Integrity">The file after the repair: <see cref="IntegrityVerdict.Clean"/> or <see cref="IntegrityVerdict.RebuildRequired"/>.</param>
/// <param name="Journal">The journal found beside the file, which the repair folded into it.</param>
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
    string Integrity,
    JournalReport Journal)
{
    /// <summary>0 repaired or nothing to repair; 2 when the file still needs a rebuild.</summary>
    [JsonIgnore]
    public int ExitCode => RebuildRequired ? ExitCodes.Failure : ExitCodes.Success;

    /// <param name="path">The filter file.</param>
    /// <param name="result">The repairing scan, judged against the operator's threshold.</param>
    /// <param name="journal">The journal it folded into the file (replayed before the scan).</param>
    public static RepairReport From(string path, VerificationResult result, JournalReport journal) => new(
        path,
        result.LinesChecked,
        result.RepairedLines,
        result.FirstBadLines,
        result.AllOnesLines,
        result.CorruptedLines,
        result.CorruptedFraction,
        result.Threshold,
        result.RebuildRequired,
        IntegrityVerdict.Status(result),
        journal);

    public void WriteText(TextWriter output)
    {
        output.WriteLine($"file             {Path}");
        output.WriteLine($"lines checked    {TextFormat.Count(LinesChecked)}");
        output.WriteLine(RepairedLines == 0
            ? "repaired         0 lines"
            : $"repaired         {TextFormat.Count(RepairedLines)} lines set to all ones and flushed (first: {string.Join(", ", FirstRepairedLines)})");
        output.WriteLine($"journal          {Journal.DescribeFolded()}");
        output.WriteLine($"all-ones         {TextFormat.Count(AllOnesLines)} lines, {TextFormat.Percent(CorruptedFraction)} of the file (threshold {TextFormat.Percent(Threshold)})");
        output.WriteLine($"result           {Advice()}");
    }

    private string Advice() => RebuildRequired
        ? $"rebuild required: more than {TextFormat.Percent(Threshold)} of lines are all ones; stop the server, delete '{Path}', its '.checkpoint' and any '.journal.N' files, start the server"
        : RepairedLines > 0
            ? "repaired: those lines now answer \"maybe\" for every name, which adds false positives but never a false negative"
            : "nothing to repair: every line's checksum matches";
}
