using System.Globalization;
using EventFilter.Benchmarks.Experiments;
using EventLog;

namespace EventFilter.IndexExperiments;

/// <summary>
/// the SSTable tables of the SSTable Bloom filter benchmarks write-up, against the engine's index: <c>GetLastEventNumber</c> latency by number of index
/// files, share of absent keys, per-file filter rate, and a filter sized for 10x too few streams.
/// </summary>
internal sealed class LookupExperiments(string root, int entriesPerFile, int lookups)
{
    private readonly Dictionary<int, IndexFixture> _fixtures = [];

    public async Task RunAsync()
    {
        foreach (int files in new[] { 1, 10, 50, 100 })
        {
            Console.WriteLine($"Building {files} index files of {entriesPerFile:N0} entries...");
            _fixtures[files] = await IndexFixture.BuildAsync(Path.Combine(root, $"files-{files}"), files, entriesPerFile).ConfigureAwait(false);
        }

        // One untimed pass first: the first configuration measured would otherwise also pay for tiered JIT compilation.
        await MeasureAsync(_fixtures[10], 0.5, perFile: true).ConfigureAwait(false);
        await MeasureAsync(_fixtures[10], 0.5, perFile: false).ConfigureAwait(false);

        Console.WriteLine($"\n### Lookup latency by number of index files (absent share 0.5, per-file rate 0.01, median of 3 x {lookups / 3:N0} lookups)\n");
        var rows = new List<string[]>();
        foreach (int files in _fixtures.Keys)
        {
            foreach (bool perFile in new[] { true, false })
            {
                LookupCost cost = await MeasureAsync(_fixtures[files], 0.5, perFile).ConfigureAwait(false);
                rows.Add([files.ToString(CultureInfo.InvariantCulture), OnOff(perFile), .. Cells(cost)]);
            }
        }

        MarkdownTable.Print(["index files", "per-file filters", "mean (ns)", "p99 (ns)", "file reads / lookup"], rows);

        Console.WriteLine($"### Lookup latency by share of absent keys (10 index files, per-file rate 0.01)\n");
        rows.Clear();
        foreach (double absent in new[] { 0.1, 0.3, 0.5, 0.7, 1.0 })
        {
            foreach (bool perFile in new[] { true, false })
            {
                LookupCost cost = await MeasureAsync(_fixtures[10], absent, perFile).ConfigureAwait(false);
                rows.Add([F(absent, "0.0"), OnOff(perFile), .. Cells(cost)]);
            }
        }

        MarkdownTable.Print(["absent share", "per-file filters", "mean (ns)", "p99 (ns)", "file reads / lookup"], rows);
        await RateTableAsync().ConfigureAwait(false);
        await UndersizedTableAsync().ConfigureAwait(false);
    }

    private async Task RateTableAsync()
    {
        Console.WriteLine("### Lookup latency by per-file filter false-positive target (10 index files, absent share 0.5)\n");
        IndexFixture fixture = _fixtures[10];
        var rows = new List<string[]>();

        // The engine accepts targets strictly between 0 and 0.5 (EventLogOptions.PerFileFilterFalsePositiveRate).
        foreach (double? rate in new double?[] { 0.001, 0.01, 0.1, 0.3, 0.49, null })
        {
            await using EventLogEngine engine = await fixture.OpenAsync(rate is not null, rate ?? 0.01).ConfigureAwait(false);
            double observed = LookupTimer.Measure(engine, fixture, 1.0, lookups / 5).FileReadsPerLookup / fixture.Files;
            LookupCost cost = LookupTimer.MeasureMedian(engine, fixture, 0.5, lookups);
            long bytes = rate is null ? 0 : new FileInfo(Directory.EnumerateFiles(Path.Combine(fixture.Directory, "index"), "*.bloom").First()).Length;
            rows.Add([rate is { } r ? F(r, "0.###") : "off", bytes.ToString("N0", CultureInfo.InvariantCulture), F(observed, "0.0000"), .. Cells(cost)]);
        }

        MarkdownTable.Print(["target rate", "filter bytes / file", "observed per-file FP", "mean (ns)", "p99 (ns)", "file reads / lookup"], rows);
    }

    private async Task UndersizedTableAsync()
    {
        const int K = 6; // the core's default k, which the engine's own filter uses
        Console.WriteLine("### A filter sized for 10x too few streams (stream-existence filter in front, per-file filters off, absent share 0.5)\n");
        var rows = new List<string[]>();
        foreach (int files in new[] { 10, 100 })
        {
            IndexFixture fixture = _fixtures[files];
            long rightSize = FalsePositiveModel.SettingFor(fixture.Streams, 0.01, K);
            long undersized = FalsePositiveModel.SettingFor(fixture.Streams / 10.0, 0.01, K);
            foreach ((string label, long size) in new[] { ("none", 0L), ($"sized for {fixture.Streams:N0} streams", rightSize), ($"sized for {fixture.Streams / 10:N0} streams", undersized) })
            {
                await using EventLogEngine engine = await fixture.OpenAsync(perFileFilters: false, filterSizeBytes: size).ConfigureAwait(false);
                long negativesBefore = engine.Statistics.StreamFilterNegatives;
                int absentLookups = lookups / 5;
                LookupTimer.Measure(engine, fixture, 1.0, absentLookups);
                long negatives = engine.Statistics.StreamFilterNegatives - negativesBefore;
                string observed = size == 0 ? "1 (no filter)" : F(1 - (negatives / (double)(absentLookups + LookupTimer.WarmUp)), "0.0000");
                LookupCost cost = LookupTimer.MeasureMedian(engine, fixture, 0.5, lookups);
                rows.Add([files.ToString(CultureInfo.InvariantCulture), label, size.ToString("N0", CultureInfo.InvariantCulture), observed, .. Cells(cost)]);
            }
        }

        MarkdownTable.Print(["index files", "stream-existence filter", "bytes", "observed FP", "mean (ns)", "p99 (ns)", "file reads / lookup"], rows);
        long perFileUndersized = FalsePositiveModel.SizeFor(entriesPerFile / 10.0, 0.01, K);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"A per-file filter sized for {entriesPerFile / 10:N0} instead of {entriesPerFile:N0} streams ({perFileUndersized:N0} bytes) would have an expected rate of " +
            $"{FalsePositiveModel.Expected(entriesPerFile, (perFileUndersized / 64) - 1, K):F3} (model, k = {K}); the engine cannot build it (see the docs).\n"));
    }

    private async Task<LookupCost> MeasureAsync(IndexFixture fixture, double absentShare, bool perFile)
    {
        await using EventLogEngine engine = await fixture.OpenAsync(perFile).ConfigureAwait(false);
        return LookupTimer.MeasureMedian(engine, fixture, absentShare, lookups);
    }

    private static string[] Cells(LookupCost cost) => [F(cost.MeanNs, "N0"), F(cost.P99Ns, "N0"), F(cost.FileReadsPerLookup, "0.00")];

    private static string OnOff(bool on) => on ? "on" : "off";

    private static string F(double value, string format) => value.ToString(format, CultureInfo.InvariantCulture);
}
