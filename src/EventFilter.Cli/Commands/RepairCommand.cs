using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports;

namespace EventFilter.Cli.Commands;

/// <summary>
/// `repair FILE`: sets every mismatched line to all ones with a valid checksum and folds the journal into the file.
/// The only command that writes. An all-ones line answers "maybe" for every name, so a repair can add false positives, never a false negative.
/// </summary>
internal static class RepairCommand
{
    public static Command Create(CliConsole console)
    {
        Argument<string> file = CommonSymbols.FilterFile();
        Option<bool> json = CommonSymbols.Json();
        Option<double> threshold = CommonSymbols.Threshold("Corrupted fraction above which the repaired file still needs a rebuild (exit 2).");
        var command = new Command("repair", "Set mismatched lines to all ones with a valid checksum and fold the journal into the file. Run with the server stopped. Exit 0 repaired or nothing to do, 2 rebuild still needed or unreadable.")
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
        // Refuse early and clearly while a server holds the file; the writer lock below would refuse too.
        ExclusiveUse.EnsureNoOtherUser(path);

        VerificationResult result;
        JournalReport journal;
        using (FilterFile filter = FilterFile.OpenExisting(path, writable: true))
        {
            // Repair whatever mismatches, however much: the threshold only decides the exit code below. The journal,
            // replayed at open, is folded into the file with the repairs.
            journal = JournalReport.From(filter.PendingJournal);
            result = ProgressDisplay.Verify(console, "repair", filter, repair: true, threshold);
        }

        var report = RepairReport.From(path, result, journal);
        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.RepairReport, report.ExitCode);
        }
        else
        {
            report.WriteText(console.Out);
        }

        return report.ExitCode;
    }
}
