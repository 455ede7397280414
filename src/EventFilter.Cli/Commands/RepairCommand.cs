using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports;
using EventFilter.Integrity;

namespace EventFilter.Cli.Commands;

/// <summary>
/// `repair FILE`: sets every mismatched line to all ones with a valid checksum and flushes. The only command that
/// writes. An all-ones line answers "maybe" for every name, so a repair can add false positives, never a false negative.
/// </summary>
internal static class RepairCommand
{
    /// <summary>
    /// The largest threshold the core accepts (it must be below 1): open then repairs whatever it finds, unless
    /// every single line is bad, which the explicit repair pass below still handles.
    /// </summary>
    private static readonly double RepairEverything = Math.BitDecrement(1.0);

    public static Command Create(CliConsole console)
    {
        Argument<string> file = CommonSymbols.FilterFile();
        Option<bool> json = CommonSymbols.Json();
        Option<double> threshold = CommonSymbols.Threshold("Corrupted fraction above which the repaired file still needs a rebuild (exit 2).");
        var command = new Command("repair", "Set mismatched lines to all ones with a valid checksum and flush. Run with the server stopped. Exit 0 repaired or nothing to do, 2 rebuild still needed or unreadable.")
        {
            file,
            json,
            threshold,
        };
        command.SetAction(parsed => Run(console, parsed.GetValue(file)!, parsed.GetValue(threshold), parsed.GetValue(json)));
        return command;
    }

    private static int Run(CliConsole console, string path, double threshold, bool json)
    {
        // Read-only first: validates header and length, and gives the size the writable open must be told.
        long sizeBytes, lines;
        using (FilterFile probe = FilterFile.OpenReadOnly(path))
        {
            sizeBytes = probe.Header.SizeBytes;
            lines = probe.LineCount;
        }

        // Known gap: FilterFile.Open creates a file that is missing, so a file deleted between here and there would
        // come back empty. An open-existing-only entry point in the core would close the gap.
        ExclusiveUse.EnsureNoOtherUser(path);

        VerificationResult result;
        using (ProgressDisplay progress = ProgressDisplay.Start(console, "repair", lines))
        using (FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = sizeBytes, CorruptionThreshold = RepairEverything, VerifyProgress = progress }))
        {
            // Open has repaired, written back and flushed, unless every line was bad; then repair explicitly.
            result = filter.Verification;
            if (result.MismatchedLines > result.RepairedLines)
            {
                result = filter.Verify(repair: true, RepairEverything);
            }
        }

        var report = RepairReport.From(path, result with { Threshold = threshold });
        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.RepairReport);
        }
        else
        {
            report.WriteText(console.Out);
        }

        return report.ExitCode;
    }
}
