using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports;

namespace EventFilter.Cli.Commands;

/// <summary>
/// `verify FILE`: checks the header, every journal record's checksum and every line's (journal replayed in memory),
/// read-only, and gives the verdict as the exit code.
/// </summary>
internal static class VerifyCommand
{
    public static Command Create(CliConsole console)
    {
        Argument<string> file = CommonSymbols.FilterFile();
        Option<bool> json = CommonSymbols.Json();
        Option<double> threshold = CommonSymbols.Threshold("Corrupted fraction (mismatched plus all-ones lines) above which a rebuild is needed; the server's default is 5%.");
        var command = new Command("verify", "Check the header, the journal and every line's checksum without changing anything. Exit 0 clean, 1 corrupted below the threshold (repair), 2 rebuild needed or unreadable.")
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
        using FilterFile filter = FilterFile.OpenExisting(path);
        VerificationResult result = ProgressDisplay.Verify(console, "verify", filter, repair: false, threshold);

        CheckpointReport? checkpoint = CheckpointReport.ReadBeside(path, filter.Header.FileId);
        var journal = JournalReport.From(filter.PendingJournal);
        int exitCode = journal.Judge(console.Error, CheckpointReport.Judge(checkpoint, console.Error, IntegrityVerdict.ExitCode(result)));
        var report = VerifyReport.From(path, filter.Header, result, checkpoint, journal);
        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.VerifyReport, exitCode);
        }
        else
        {
            report.WriteText(console.Out, IntegrityVerdict.Advice(result, path));
        }

        return exitCode;
    }
}
