using System.Diagnostics;
using System.Globalization;

namespace EventFilter.PostgreSqlBench;

/// <summary>
/// Appends per second over one table by 1, 2 and 4 processes of --writers each, with the filter in front (--size) and
/// with none (size 0: every append looks its stream up), alternating which goes first each round; the ratio of each
/// pair, the lookups the filter saved, and the appends that met the unique constraint (--duplicates percent of the
/// appends create a stream every process creates too).
/// </summary>
internal static class AppendsExperiment
{
    public static async Task RunAsync(Arguments arguments)
    {
        int[] processCounts = [.. (arguments.Get("--processes") ?? "1,2,4").Split(',').Select(p => int.Parse(p, CultureInfo.InvariantCulture))];
        int streams = arguments.Int("--streams", 8000), rounds = arguments.Int("--rounds", 3), writers = arguments.Int("--writers", 4);
        string size = arguments.Get("--size") ?? "16MB";
        Console.WriteLine($"appends: {streams} appends per run, {writers} writers per process, {arguments.Int("--duplicates", 0)}% creating a stream every process creates, {Environment.ProcessorCount} cores");
        Console.WriteLine("| round | processes | first | none (appends/s) | filter (appends/s) | ratio | lookups saved | unique violations (filter) | unique violations (none) |");
        Console.WriteLine("|---|---|---|---|---|---|---|---|---|");
        for (int round = 1; round <= rounds; round++)
        {
            foreach (int processes in processCounts)
            {
                bool noneFirst = (round + processes) % 2 == 1; // alternate, so neither always runs on the warmer machine
                Run first = await RunOnceAsync(arguments, processes, noneFirst ? "0" : size, streams, writers);
                Run second = await RunOnceAsync(arguments, processes, noneFirst ? size : "0", streams, writers);
                (Run none, Run filter) = noneFirst ? (first, second) : (second, first);
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"| {round} | {processes} | {(noneFirst ? "none" : "filter")} | {none.Rate:F0} | {filter.Rate:F0} | {filter.Rate / none.Rate:F2} | {filter.Skipped} of {streams} | {filter.Retried} | {none.Retried} |"));
            }
        }
    }

    private sealed record Run(double Rate, long Skipped, long Retried);

    private static async Task<Run> RunOnceAsync(Arguments arguments, int processes, string size, int streams, int writers)
    {
        await EventsTable.ResetAsync(arguments.Connection);
        string root = Directory.CreateTempSubdirectory("eventfilter-pgbench-").FullName;
        var children = new List<ChildProcess>();
        try
        {
            for (int p = 0; p < processes; p++)
            {
                children.Add(ChildProcess.Start([
                    "--role", "appends", "--connection", arguments.Connection, "--directory", Path.Combine(root, $"process-{p}"), "--size", size,
                    "--process", $"{p}", "--count", $"{streams / processes}", "--writers", $"{writers}",
                    "--duplicates", arguments.Get("--duplicates") ?? "0"]));
            }

            foreach (ChildProcess child in children)
            {
                await child.ExpectAsync("ready");
            }

            long started = Stopwatch.GetTimestamp();
            await Task.WhenAll(children.Select(child => child.SayAsync("go")));
            string[] results = await Task.WhenAll(children.Select(child => child.ExpectAsync("done")));
            double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
            await Task.WhenAll(children.Select(child => child.StopAsync()));
            long[][] counts = [.. results.Select(r => r.Split(' ').Select(long.Parse).ToArray())];
            return new Run(counts.Sum(c => c[0]) / seconds, counts.Sum(c => c[1]), counts.Sum(c => c[2]));
        }
        finally
        {
            children.ForEach(child => child.Dispose());
            Directory.Delete(root, recursive: true);
        }
    }
}
