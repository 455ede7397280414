using System.Diagnostics;
using EventFilter.DaemonBench.Client;
using EventFilter.DaemonBench.Report;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// Rows that start servers of their own: cold startup (empty data directory), RSS with one 1M-capacity filter filled
/// with 1M items (in batches of 1,000), and restart startup on that data (a clean stop, then a start: time to first PONG).
/// </summary>
internal static class ProcessRows
{
    private const string FilledKey = "filled";
    private const int FillBatch = 1_000;

    public static void Run(Bench bench)
    {
        BenchSettings settings = bench.Settings;
        bench.ProcessRow("cold startup", "ms", spec =>
        {
            // One start first, discarded: the binaries' pages come into the page cache for both sides alike.
            Start(bench, spec, bench.Scratch(spec)).Dispose();
            return Median(settings.StartupTrials, _ => Start(bench, spec, bench.Scratch(spec)));
        });

        var filled = new Dictionary<ServerSpec, string>();
        bench.ProcessRow("RSS, one filled 1M filter", "MB", spec =>
        {
            string directory = bench.Scratch(spec);
            filled[spec] = directory;
            using ServerProcess server = Start(bench, spec, directory);
            Fill(server, settings.RssItems);

            // A checkpoint interval passes, so the figure is the steady state with the filter's pages mapped.
            Thread.Sleep(TimeSpan.FromSeconds(1.5));
            return new Measurement(server.ResidentKilobytes() / 1024.0);
        });

        // A server that keeps no data (RedisBloom, run in memory) would only start empty again: no figure, not a cold one.
        bench.ProcessRow("restart startup", "ms", spec =>
        {
            if (!spec.KeepsData)
            {
                return null;
            }

            if (!filled.TryGetValue(spec, out string? directory))
            {
                // The RSS row was left out (--only): fill a data directory for the restarts here.
                directory = bench.Scratch(spec);
                using ServerProcess server = Start(bench, spec, directory);
                Fill(server, settings.RssItems);
            }

            return Median(settings.StartupTrials, _ => Start(bench, spec, directory));
        });
    }

    private static ServerProcess Start(Bench bench, ServerSpec spec, string directory) => ServerProcess.Start(spec, directory, bench.Pinned);

    /// <summary>Starts <paramref name="trials"/> servers one after the other; the figure is the median time to first PONG, in ms.</summary>
    private static Measurement Median(int trials, Func<int, ServerProcess> start)
    {
        var samples = new Samples(trials);
        var milliseconds = new double[trials];
        for (int trial = 0; trial < trials; trial++)
        {
            using ServerProcess server = start(trial);
            milliseconds[trial] = server.StartupTime.TotalMilliseconds;
            samples.Add((long)(server.StartupTime.TotalSeconds * Stopwatch.Frequency));
        }

        Array.Sort(milliseconds);
        return new Measurement(milliseconds[trials / 2], samples.Distribution());
    }

    private static void Fill(ServerProcess server, int items)
    {
        using RespConnection connection = server.Connect();
        Dialect dialect = server.Spec.Dialect;
        connection.Call(dialect.Create(FilledKey, 1_000_000));
        for (int first = 0; first < items; first += FillBatch)
        {
            int count = Math.Min(FillBatch, items - first);
            connection.Call(dialect.AddMany(FilledKey, Enumerable.Range(first, count).Select(i => RespCommand.Item("fill", i))));
        }
    }
}
