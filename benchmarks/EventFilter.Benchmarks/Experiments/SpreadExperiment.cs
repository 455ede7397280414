using System.Diagnostics;
using System.Globalization;
using EventFilter.Benchmarks.Workload;
using EventFilter.Daemon.Formats;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>spread</c>: eventfilterd's layer sizing at each error rate from 0.1 to 1e-7 (docs/daemon-design.md, "Sizing"). For each
/// rate, a non-scaling filter of 2^20 items is sized as BF.RESERVE sizes it, filled with single adds (timed), and queried
/// with absent items: single lookups timed over the first 2^20, then batches up to at least 100 expected false
/// positives (4 to 256 sets of 2^20). Then the sizes at capacities 1,000 and 10,000,000 in both modes, which are not
/// built, beside RedisBloom's, and the model's rates for the stream-existence filter at 1 and 2 bytes per stream with
/// one and two lines per key.
/// </summary>
public static class SpreadExperiment
{
    private const int Capacity = StreamNames.PoolSize;

    private static readonly double[] Rates = [1e-1, 1e-2, 1e-3, 1e-4, 1e-5, 1e-6, 1e-7];

    public static int Run()
    {
        var added = new StreamNames("orders", Capacity);
        var absent = new StreamNames("ledger", Capacity);
        bool[] results = new bool[Capacity];
        var rows = new List<string[]>();
        foreach (double rate in Rates)
        {
            FilterFileOptions options = new FilterParameters(Capacity, rate, 2, NonScaling: true).LayerOptions(0)!;
            string path = BenchmarkDirectory.Scratch("spread.filter");
            try
            {
                using FilterFile filter = FilterFile.Create(path, options);
                long started = Stopwatch.GetTimestamp();
                for (int i = 0; i < Capacity; i++)
                {
                    filter.Add(added.Utf8[i]);
                }

                double addNs = Stopwatch.GetElapsedTime(started).TotalNanoseconds / Capacity;
                absent.SetGeneration(1);
                started = Stopwatch.GetTimestamp();
                long positives = 0;
                for (int i = 0; i < Capacity; i++)
                {
                    positives += filter.MightExist(absent.Utf8[i]) ? 1 : 0;
                }

                double checkNs = Stopwatch.GetElapsedTime(started).TotalNanoseconds / Capacity;
                int generations = (int)Math.Clamp(Math.Ceiling(100 / rate / Capacity), 4, 256);
                for (int generation = 2; generation <= generations; generation++)
                {
                    absent.SetGeneration(generation);
                    filter.MightExistBatch(absent.Packed, absent.Lengths, results);
                    positives += results.Count(r => r);
                }

                long queries = (long)generations * Capacity;
                double bound = -Math.Log(rate) / (Math.Log(2) * Math.Log(2));
                double ours = options.SizeBytes * 8.0 / Capacity;
                rows.Add([
                    rate.ToString("0.#######", CultureInfo.InvariantCulture),
                    options.LinesPerKey.ToString(CultureInfo.InvariantCulture),
                    options.K.ToString(CultureInfo.InvariantCulture),
                    ours.ToString("F2", CultureInfo.InvariantCulture),
                    bound.ToString("F2", CultureInfo.InvariantCulture),
                    $"{(ours / bound) - 1:+0.0%;-0.0%}",
                    $"{(double)positives / queries:0.00E+0} ({positives:N0} of {queries:N0}; {Interval(positives, queries)})",
                    FalsePositiveModel.Expected(Capacity, filter.Header.LineCount, options.K, options.LinesPerKey).ToString("0.00E+0", CultureInfo.InvariantCulture),
                    addNs.ToString("F0", CultureInfo.InvariantCulture),
                    checkNs.ToString("F0", CultureInfo.InvariantCulture),
                ]);
                Console.Error.WriteLine($"// {rate} done");
            }
            finally
            {
                File.Delete(path);
            }
        }

        Console.WriteLine($"Non-scaling filters of {Capacity:N0} items, filled to capacity; bits per item are the file's (64-byte lines with their checksums, and the header) per item.");
        Console.WriteLine();
        MarkdownTable.Print(["error rate", "lines per key", "k", "bits/item", "standard bound", "over the bound", "measured FP rate", "model FP rate", "add ns", "check ns"], rows);
        PrintSizes(1_000, RedisBloomThousand);
        PrintSizes(10_000_000, RedisBloomTenMillion);
        PrintStreamExistence();
        return 0;
    }

    // RedisBloom 2.4.23's BF.INFO Size for each rate, (scaling, non-scaling): BF.RESERVE k RATE CAPACITY [NONSCALING]
    // against redis-server with the module loaded, then BF.INFO k SIZE.
    private static readonly (long Scaling, long NonScaling)[] RedisBloomThousand =
        [(880, 696), (1_480, 1_296), (2_080, 1_896), (2_680, 2_496), (3_272, 3_096), (3_872, 3_696), (4_472, 4_296)];

    private static readonly (long Scaling, long NonScaling)[] RedisBloomTenMillion =
    [
        (7_794_128, 5_990_760), (13_784_792, 11_981_424), (19_775_456, 17_972_088), (25_766_112, 23_962_744),
        (31_756_776, 29_953_408), (37_747_440, 35_944_072), (43_738_096, 41_934_728),
    ];

    private static void PrintSizes(long capacity, (long Scaling, long NonScaling)[] redisBloom)
    {
        var rows = new List<string[]>();
        for (int i = 0; i < Rates.Length; i++)
        {
            FilterFileOptions nonScaling = new FilterParameters(capacity, Rates[i], 2, NonScaling: true).LayerOptions(0)!;
            FilterFileOptions scaling = new FilterParameters(capacity, Rates[i], 2, NonScaling: false).LayerOptions(0)!;
            rows.Add([
                Rates[i].ToString("0.#######", CultureInfo.InvariantCulture),
                $"{nonScaling.SizeBytes:N0} / {redisBloom[i].NonScaling:N0} ({((double)nonScaling.SizeBytes / redisBloom[i].NonScaling) - 1:+0.0%;-0.0%}), L {nonScaling.LinesPerKey}",
                $"{scaling.SizeBytes:N0} / {redisBloom[i].Scaling:N0} ({((double)scaling.SizeBytes / redisBloom[i].Scaling) - 1:+0.0%;-0.0%}), L {scaling.LinesPerKey}",
            ]);
        }

        Console.WriteLine($"BF.INFO Size at capacity {capacity:N0}, ours / RedisBloom's:");
        Console.WriteLine();
        MarkdownTable.Print(["error rate", "non-scaling", "scaling"], rows);
    }

    /// <summary>The 95% interval of a binomial rate (Wilson's score interval).</summary>
    private static string Interval(long positives, long queries)
    {
        const double z = 1.96;
        double p = (double)positives / queries, n = queries;
        double centre = (p + (z * z / (2 * n))) / (1 + (z * z / n));
        double half = z * Math.Sqrt((p * (1 - p) / n) + (z * z / (4 * n * n))) / (1 + (z * z / n));
        return string.Create(CultureInfo.InvariantCulture, $"{centre - half:0.0E+0}-{centre + half:0.0E+0}");
    }

    private static void PrintStreamExistence()
    {
        var rows = new List<string[]>();
        const long lines = 1_000_000;
        foreach (int bytesPerStream in new[] { 1, 2 })
        {
            // One byte of stream-existence-filter-size per stream is 8 filter bits: a line's 480 bits are 60 bytes of it.
            double names = lines * 60.0 / bytesPerStream;
            foreach (int linesPerKey in new[] { 1, 2 })
            {
                (int k, double rate) = Enumerable.Range(linesPerKey, 16 - linesPerKey + 1)
                    .Select(k => (k, FalsePositiveModel.Expected(names, lines, k, linesPerKey))).MinBy(c => c.Item2);
                rows.Add([
                    bytesPerStream.ToString(CultureInfo.InvariantCulture),
                    linesPerKey.ToString(CultureInfo.InvariantCulture),
                    k.ToString(CultureInfo.InvariantCulture),
                    rate.ToString("0.000%", CultureInfo.InvariantCulture),
                    FalsePositiveModel.Expected(names, lines, FilterFileOptions.DefaultK, linesPerKey).ToString("0.000%", CultureInfo.InvariantCulture),
                ]);
            }
        }

        Console.WriteLine("The stream-existence filter at 1 and 2 bytes per stream, by the model:");
        Console.WriteLine();
        MarkdownTable.Print(["bytes/stream", "lines per key", "best k", "rate at best k", "rate at k = 6"], rows);
    }
}
