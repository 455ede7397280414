using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports;
using EventFilter.Integrity;
using EventFilter.Statistics;

namespace EventFilter.Cli.Commands;

/// <summary>`inspect FILE`: header, fill, estimates, integrity counts, checkpoint and pending journal. Read-only.</summary>
internal static class InspectCommand
{
    public static Command Create(CliConsole console)
    {
        Argument<string> file = CommonSymbols.FilterFile();
        Option<bool> json = CommonSymbols.Json();
        Option<double> threshold = CommonSymbols.Threshold("Corrupted fraction above which the file is reported as needing a rebuild.");
        var command = new Command("inspect", "Show a filter file's header, fill ratio, estimated streams and false-positive rate, integrity, checkpoint and pending journal (replayed in memory, so the counts include it). Read-only; exit 0 when the file could be read.")
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
        using FilterFile filter = FilterFile.OpenReadOnly(path);
        VerificationResult verification = ProgressDisplay.Verify(console, "inspect", filter, repair: false, threshold);

        FilterStatistics statistics = filter.ComputeStatistics();
        CheckpointReport? checkpoint = CheckpointReport.ReadBeside(path, filter.Header.FileId);
        var journal = JournalReport.From(filter.PendingJournal);
        var report = InspectReport.From(path, filter.Header, statistics, verification, checkpoint, journal);
        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.InspectReport);
        }
        else
        {
            report.WriteText(console.Out);
        }

        // Corruption is reported, not judged, here: `verify` gives the verdict. A garbage checkpoint still fails.
        return CheckpointReport.Judge(checkpoint, console.Error, ExitCodes.Success);
    }
}
