using System.CommandLine;
using EventFilter.Cli.Output;
using EventFilter.Cli.Progress;
using EventFilter.Cli.Reports;
using EventFilter.Cli.Reports.Daemon;

namespace EventFilter.Cli.Commands;

/// <summary>
/// `inspect FILE`: header, fill, estimates, integrity counts, checkpoint and pending journal. `inspect DIR` on an
/// eventfilterd data directory: the same for every layer of every named filter, with its digest log. Read-only.
/// </summary>
internal static class InspectCommand
{
    public static Command Create(CliConsole console)
    {
        var file = new Argument<string>("path") { Description = "A filter file (the checkpoint, if any, is <file>.checkpoint), or an eventfilterd data directory (its --data, holding filters/ and eventfilterd.lock)." };
        Option<bool> json = CommonSymbols.Json();
        Option<double> threshold = CommonSymbols.Threshold("Corrupted fraction above which the file is reported as needing a rebuild.");
        var command = new Command("inspect", "Show a filter file's header, fill ratio, estimated streams and false-positive rate, integrity, checkpoint and pending journal (replayed in memory, so the counts include it). Given an eventfilterd data directory, show every named filter: digest log, layers and how far catch-up would go. Read-only; exit 0 when everything could be read.")
        {
            file,
            json,
            threshold,
        };
        command.SetAction((parsed, cancel) =>
        {
            string path = parsed.GetValue(file)!;
            return System.IO.Directory.Exists(path)
                ? RunOnDataDirectory(console, path, parsed.GetValue(threshold), parsed.GetValue(json), cancel)
                : Task.FromResult(Run(console, path, parsed.GetValue(threshold), parsed.GetValue(json)));
        });
        return command;
    }

    private static async Task<int> RunOnDataDirectory(CliConsole console, string path, double threshold, bool json, CancellationToken cancel)
    {
        if (!DataDirectoryReport.IsDataDirectory(path))
        {
            throw new IOException($"'{path}' is a directory but not an eventfilterd data directory (no '{EventFilter.Daemon.Formats.DataLayout.FiltersDirectory}/' or '{EventFilter.Daemon.Formats.DataLayout.LockFile}' in it): give a filter file or a daemon's --data directory.");
        }

        DataDirectoryReport report = await DataDirectoryReport.ReadAsync(console, path, threshold, cancel).ConfigureAwait(false);
        int exitCode = report.Judge(console.Error);
        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.DataDirectoryReport, exitCode);
        }
        else
        {
            report.WriteText(console.Out);
        }

        return exitCode;
    }

    private static int Run(CliConsole console, string path, double threshold, bool json)
    {
        using FilterFile filter = FilterFile.OpenExisting(path);
        VerificationResult verification = ProgressDisplay.Verify(console, "inspect", filter, repair: false, threshold);

        FilterStatistics statistics = filter.ComputeStatistics();
        CheckpointReport? checkpoint = CheckpointReport.ReadBeside(path, filter.Header.FileId);
        var journal = JournalReport.From(filter.PendingJournal);
        var report = InspectReport.From(path, filter.Header, statistics, verification, checkpoint, journal);

        // Corruption is reported, not judged, here: `verify` gives the verdict. A garbage checkpoint still fails.
        int exitCode = CheckpointReport.Judge(checkpoint, console.Error, ExitCodes.Success);
        if (json)
        {
            JsonOutput.Write(console.Out, report, CliJsonContext.Default.InspectReport, exitCode);
        }
        else
        {
            report.WriteText(console.Out);
        }

        return exitCode;
    }
}
