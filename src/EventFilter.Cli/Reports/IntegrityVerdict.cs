namespace EventFilter.Cli.Reports;

/// <summary>
/// What a verification means for the operator. All-ones lines (earlier repairs) are safe but count toward the
/// rebuild threshold, as they do when the server opens the file; only mismatched lines still need a repair.
/// So a repaired file verifies as clean (exit 0) until its all-ones lines pass the threshold.
/// </summary>
internal static class IntegrityVerdict
{
    public const string Clean = "clean";
    public const string Corrupted = "corrupted";
    public const string RebuildRequired = "rebuild-required";

    public static string Status(VerificationResult result) =>
        result.RebuildRequired ? RebuildRequired : result.MismatchedLines > result.RepairedLines ? Corrupted : Clean;

    public static int ExitCode(VerificationResult result) => Status(result) switch
    {
        Clean => ExitCodes.Success,
        Corrupted => ExitCodes.Corrupted,
        _ => ExitCodes.Failure,
    };

    /// <summary>The operator's next step, for the text output.</summary>
    public static string Advice(VerificationResult result, string filterPath) => Status(result) switch
    {
        Clean => result.AllOnesLines == 0
            ? "clean: every line's checksum matches"
            : "clean: every line's checksum matches; the all-ones lines are earlier repairs (they answer \"maybe\" for every name)",
        Corrupted => $"corrupted, below the threshold: run 'eventfilter repair {filterPath}' with the server stopped, or start the server, which repairs on open",
        _ => $"rebuild required: stop the server, delete '{filterPath}', its '.checkpoint' and any '.journal.N' files, start the server to rebuild from the log",
    };
}
