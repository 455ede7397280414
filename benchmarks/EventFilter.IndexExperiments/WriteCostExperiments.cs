using System.Diagnostics;
using System.Globalization;
using EventFilter.Benchmarks.Experiments;
using EventLog;

namespace EventFilter.IndexExperiments;

/// <summary>Which filters the writer maintains in a write-cost run.</summary>
/// <param name="PerFileFilters">Each flushed index file gets its own Bloom filter (built during the flush).</param>
/// <param name="FilterSizeBytes">The stream-existence filter's size (one add per append); 0 for none.</param>
internal readonly record struct WriteConfig(bool PerFileFilters, long FilterSizeBytes)
{
    public static WriteConfig[] All { get; } = [new(false, 0), new(true, 0), new(false, 15_000_000), new(true, 15_000_000)];

    public string PerFileLabel => PerFileFilters ? "on" : "off";

    public string FilterLabel => FilterSizeBytes > 0 ? $"{FilterSizeBytes / 1_000_000} MB" : "off";

    public EventLogOptions Options(string directory, int memTableEntries) => new()
    {
        DataDirectory = directory,
        MemTableEntries = memTableEntries,
        PerFileFilters = PerFileFilters,
        StreamExistenceFilterSizeBytes = FilterSizeBytes,
    };
}

/// <summary>
/// the LevelDB filter-block experiment's question (does maintaining filters slow writes?) asked of the engine: append throughput to
/// existing streams, and the time one index flush takes, with each filter on and off. Configs run in interleaved
/// rounds so that other load on the machine spreads over all of them.
/// </summary>
internal sealed class WriteCostExperiments(string root, int rounds)
{
    // Fewer streams than the stream-info cache holds (100,000), so no append looks anything up: what is left is the
    // write path itself (encode, write, fsync, memtable, filter adds) and the flushes behind it.
    private const int ExistingStreams = 50_000;
    private const int Appends = 1_000_000;
    private const int ThroughputMemTable = 250_000;
    private const int FlushMemTable = 1_000_000;

    public async Task RunAsync()
    {
        var throughput = WriteConfig.All.ToDictionary(c => c, _ => new List<double>());
        var flush = WriteConfig.All.ToDictionary(c => c, _ => new List<FlushCost>());
        for (int round = 1; round <= rounds; round++)
        {
            foreach (WriteConfig config in WriteConfig.All)
            {
                Console.WriteLine($"Round {round}: per-file filters {config.PerFileLabel}, stream-existence filter {config.FilterLabel}");
                throughput[config].Add(await AppendsPerSecondAsync(config).ConfigureAwait(false));
                flush[config].Add(await FlushTime.MeasureAsync(config, Fresh("flush"), FlushMemTable).ConfigureAwait(false));
            }
        }

        Console.WriteLine($"\n### Append throughput to existing streams ({Appends:N0} appends over {ExistingStreams:N0} streams, memtable {ThroughputMemTable:N0}, {AppendLoad.Concurrency} in flight; {rounds} rounds)\n");
        MarkdownTable.Print(
            ["per-file filters", "stream-existence filter", "appends/s (each round)", "median appends/s", "best appends/s"],
            WriteConfig.All.Select(c => new[]
            {
                c.PerFileLabel, c.FilterLabel, string.Join(", ", throughput[c].Select(t => F(t, "N0"))), F(Median(throughput[c]), "N0"), F(throughput[c].Max(), "N0"),
            }));

        Console.WriteLine($"### Index flush time ({FlushMemTable:N0}-entry memtable of {FlushMemTable:N0} new streams, writer idle; {rounds} rounds)\n");
        MarkdownTable.Print(
            ["per-file filters", "stream-existence filter", "flush ms (each round)", "median ms", "best ms", "index file bytes", "filter file bytes"],
            WriteConfig.All.Select(c => new[]
            {
                c.PerFileLabel, c.FilterLabel, string.Join(", ", flush[c].Select(f => F(f.Milliseconds, "N0"))),
                F(Median(flush[c].Select(f => f.Milliseconds)), "N0"), F(flush[c].Min(f => f.Milliseconds), "N0"), F(flush[c][0].IndexBytes, "N0"), F(flush[c][0].FilterBytes, "N0"),
            }));
    }

    // On a shared machine a round can lose the CPU to other work: the median and the best round say more than the mean.
    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        return sorted.Length % 2 == 1 ? sorted[sorted.Length / 2] : (sorted[(sorted.Length / 2) - 1] + sorted[sorted.Length / 2]) / 2;
    }

    /// <summary>Creates the streams, then times <see cref="Appends"/> appends to them, including the flushes they fill.</summary>
    private async Task<double> AppendsPerSecondAsync(WriteConfig config)
    {
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(config.Options(Fresh("throughput"), ThroughputMemTable)).ConfigureAwait(false);
        engine.Start();
        if (engine.Filter is { } filter)
        {
            await filter.WhenReady.ConfigureAwait(false);
        }

        await AppendLoad.RunAsync(engine, 0, ExistingStreams, IndexFixture.Present).ConfigureAwait(false);
        long start = Stopwatch.GetTimestamp();

        // A multiplicative hash scatters consecutive appends over the streams, so batches rarely repeat a stream.
        await AppendLoad.RunAsync(engine, 0, Appends, i => IndexFixture.Present(i * 2_654_435_761L % ExistingStreams)).ConfigureAwait(false);
        await AppendLoad.WaitForFlushesAsync(engine, (ExistingStreams + Appends) / ThroughputMemTable).ConfigureAwait(false);
        double seconds = Stopwatch.GetElapsedTime(start).TotalSeconds;
        if (engine.Statistics.CacheMisses > ExistingStreams)
        {
            throw new InvalidOperationException($"{engine.Statistics.CacheMisses:N0} cache misses: the appends looked streams up, so this is not the write path alone.");
        }

        await engine.StopAsync().ConfigureAwait(false);
        return Appends / seconds;
    }

    private string Fresh(string name)
    {
        string directory = Path.Combine(root, name);
        if (Directory.Exists(directory))
        {
            Directory.Delete(directory, recursive: true);
        }

        return directory;
    }

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
