using System.Globalization;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>flush</c>, part 1: bytes and time of one checkpoint flush after N new names on a 256 MiB filter, EventFilter
/// (1 line, so 1 page, per name) against the classic peer (up to 6 pages per name), both memory-mapped, both counting
/// one page per distinct page changed. Run on an empty filter and on one at design load, where the classic peer skips
/// probes whose bit is already set. Each cell is the median of <see cref="Repeats"/> rounds of fresh names.
/// The model column is the expected distinct pages for t random page touches: P (1 - (1 - 1/P)^t).
/// </summary>
public static class FlushVolumeExperiment
{
    public const long SizeBytes = 256L << 20;
    private const int Repeats = 3;
    private static readonly int[] NameCounts = [1_000, 10_000, 100_000];

    public static void Run(StreamNames hits)
    {
        var names = new StreamNames("signup", NameCounts.Max());
        int generation = 0;
        var rows = new List<string[]>();
        foreach (bool loaded in new[] { false, true })
        {
            using FilterFile ours = loaded
                ? LoadedFilters.OpenCopy(SizeBytes, "flush.filter")
                : FilterFile.Create(BenchmarkDirectory.Scratch("flush.filter"), LoadedFilters.Options(SizeBytes));
            using ClassicBloomFilter classic = loaded
                ? LoadedFilters.CreateClassic(SizeBytes, hits, "classic-flush.filter")
                : new ClassicBloomFilter(BenchmarkDirectory.Scratch("classic-flush.filter"), SizeBytes);
            ours.Flush();
            classic.Flush();
            double pages = (double)SizeBytes / Environment.SystemPageSize;
            double classicWrittenProbes = loaded ? 1 - DesignLoad.ClassicFillRatio(SizeBytes, SizeBytes * 8.0 * 480 / 512, ClassicBloomFilter.K) : 1;
            foreach (int count in NameCounts)
            {
                var oursResults = new List<FlushResult>();
                var classicResults = new List<FlushResult>();
                for (int repeat = 0; repeat < Repeats; repeat++)
                {
                    names.SetGeneration(++generation);
                    for (int i = 0; i < count; i++)
                    {
                        ours.Add(names.Utf8[i]);
                    }

                    oursResults.Add(ours.Flush());
                    for (int i = 0; i < count; i++)
                    {
                        classic.Add(names.Utf8[i]);
                    }

                    classicResults.Add(classic.Flush());
                }

                FlushResult o = Median(oursResults), c = Median(classicResults);
                double oursModel = DistinctPages(pages, count), classicModel = DistinctPages(pages, count * ClassicBloomFilter.K * classicWrittenProbes);
                rows.Add([
                    loaded ? "design load" : "empty",
                    count.ToString("N0", CultureInfo.InvariantCulture),
                    Size(o.BytesFlushed),
                    Size(c.BytesFlushed),
                    ((double)c.BytesFlushed / o.BytesFlushed).ToString("F2", CultureInfo.InvariantCulture),
                    (classicModel / oursModel).ToString("F2", CultureInfo.InvariantCulture),
                    Millis(o.Duration),
                    Millis(c.Duration),
                ]);
            }

            BenchmarkDirectory.DeleteQuietly(ours.Path);
            BenchmarkDirectory.DeleteQuietly(classic.Path);
        }

        Console.WriteLine($"Flush after N new names, {SizeBytes >> 20} MiB filter, {Environment.SystemPageSize} B pages; median of {Repeats} rounds.");
        Console.WriteLine();
        MarkdownTable.Print(["filter state", "new names", "ours: bytes flushed", "classic: bytes flushed", "classic ÷ ours", "model ratio", "ours: flush time", "classic: flush time"], rows);
    }

    private static double DistinctPages(double pages, double touches) => pages * (1 - Math.Pow(1 - (1 / pages), touches));

    private static FlushResult Median(List<FlushResult> results) => results.OrderBy(r => r.BytesFlushed).ElementAt(results.Count / 2) with
    {
        Duration = results.Select(r => r.Duration).Order().ElementAt(results.Count / 2),
    };

    private static string Size(long bytes) =>
        $"{bytes / (1024.0 * 1024.0):F1} MiB ({100.0 * bytes / SizeBytes:F1}%)".ToString(CultureInfo.InvariantCulture);

    private static string Millis(TimeSpan duration) => $"{duration.TotalMilliseconds.ToString("F1", CultureInfo.InvariantCulture)} ms";
}
