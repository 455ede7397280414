using System.Globalization;

namespace EventFilter.StreamCreation;

/// <summary>
/// The headline: each config's rate just before the first index flush, at 5 and 10 memtables' worth of streams and at
/// the end (each the rate over the 5 windows ending there), the end ratio of the 15 MB filter to no filter, and the
/// engine counters that show each config measured what it claims to.
/// </summary>
internal static class RunSummary
{
    private const int WindowsPerPoint = 5;

    public static void Print(IReadOnlyList<RunResult> results, HarnessSettings settings)
    {
        long[] points = [.. new[] { settings.MemTableEntries, 5L * settings.MemTableEntries, 10L * settings.MemTableEntries, settings.Streams }
            .Where(p => p <= settings.Streams && p >= WindowsPerPoint * settings.Window).Distinct()];
        Console.WriteLine();
        Console.WriteLine("| config | " + string.Join(" | ", points.Select(p => $"rate at {AxisTicks.Label(p)} (/s)")) + " | total (s) | flushes | merges | files at end | index-file reads | per-file skips | filter 'new' |");
        Console.WriteLine("|---|" + string.Concat(points.Select(_ => "---:|")) + "---:|---:|---:|---:|---:|---:|---:|");
        foreach (RunResult r in results)
        {
            var s = r.Statistics;
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                $"| {r.Config.Name} | {string.Join(" | ", points.Select(p => RateAt(r, p, settings.Window).ToString("N0", CultureInfo.InvariantCulture)))} | {r.Elapsed.TotalSeconds:F0} | {s.IndexFlushes} | {s.IndexMerges} | {s.IndexFiles} | {s.IndexFileReads:N0} | {s.IndexFileFilterSkips:N0} | {s.StreamFilterNegatives:N0} |"));
        }

        if (results.FirstOrDefault(r => r.Config.Name == "filter-15MB") is { } filtered && results.FirstOrDefault(r => r.Config.Name == "none") is { } none)
        {
            double ratio = RateAt(filtered, settings.Streams, settings.Window) / RateAt(none, settings.Streams, settings.Window);
            Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"\nEnd ratio filter-15MB / none: {ratio:F2}x (EventStoreDB: ~50k/s vs ~15k/s, about 3.3x)"));
        }
    }

    /// <summary>
    /// The mean rate over each memtable's worth of streams (0-1M, 1M-2M, ... with the default memtable), per config:
    /// the curve's shape in one table, from the rows alone, so <c>--plot</c> prints it for an earlier run's CSV too.
    /// </summary>
    public static void PrintStretches(IReadOnlyList<RateRow> rows, long stretch)
    {
        long end = rows.Count > 0 ? rows.Max(r => r.Streams) : 0;
        long[] ends = [.. Enumerable.Range(1, (int)Math.Min(50, (end + stretch - 1) / stretch)).Select(i => Math.Min(end, i * stretch))];
        Console.WriteLine("\n| config | " + string.Join(" | ", ends.Select(e => $"{AxisTicks.Label(Math.Max(0, e - stretch))}-{AxisTicks.Label(e)}")) + " |");
        Console.WriteLine("|---|" + string.Concat(ends.Select(_ => "---:|")));
        foreach (IGrouping<string, RateRow> config in rows.GroupBy(r => r.Config))
        {
            RateRow[] configRows = [.. config];
            Console.WriteLine($"| {config.Key} | " + string.Join(" | ", ends.Select(e =>
                Rate(configRows, Math.Max(0, e - stretch), e).ToString("N0", CultureInfo.InvariantCulture))) + " |");
        }
    }

    /// <summary>
    /// Whether each config did what its name says: without filters the index files were read; per-file filters skipped
    /// files; the stream-existence filter answered "new". False (with a message) when the run measured something else.
    /// </summary>
    public static bool Check(IReadOnlyList<RunResult> results, HarnessSettings settings)
    {
        bool valid = true;
        foreach (RunResult r in results)
        {
            string? problem = r.Config switch
            {
                _ when r.Streams != settings.Streams => $"wrote {r.Streams:N0} of {settings.Streams:N0} streams",
                _ when r.Statistics.IndexFlushes == 0 && settings.Streams > settings.MemTableEntries => "flushed no index file",
                { FilterSizeBytes: > 0 } when r.Statistics.StreamFilterNegatives == 0 => "the stream-existence filter never answered 'new'",
                { FilterSizeBytes: 0, PerFileFilters: false } when r.Statistics.IndexFileReads == 0 && r.Statistics.IndexFlushes > 0 => "read no index file",
                { PerFileFilters: true } when r.Statistics.IndexFileFilterSkips == 0 && r.Statistics.IndexFlushes > 0 => "no per-file filter skipped a file",
                _ => null,
            };
            if (problem is not null)
            {
                Console.Error.WriteLine($"[{r.Config.Name}] invalid run: {problem}.");
                valid = false;
            }
        }

        return valid;
    }

    /// <summary>Streams per second over the <see cref="WindowsPerPoint"/> windows ending at <paramref name="streams"/>.</summary>
    private static double RateAt(RunResult result, long streams, long window) => Rate(result.Rows, streams - (WindowsPerPoint * window), streams);

    /// <summary>Streams per second between the rows at <paramref name="from"/> (or the start) and <paramref name="to"/>.</summary>
    private static double Rate(IReadOnlyList<RateRow> rows, long from, long to)
    {
        RateRow? end = rows.LastOrDefault(row => row.Streams <= to);
        RateRow? start = rows.LastOrDefault(row => row.Streams <= from);
        if (end is null)
        {
            return double.NaN;
        }

        double startSeconds = start?.ElapsedSeconds ?? 0, startStreams = start?.Streams ?? 0;
        return (end.Streams - startStreams) / (end.ElapsedSeconds - startSeconds);
    }
}
