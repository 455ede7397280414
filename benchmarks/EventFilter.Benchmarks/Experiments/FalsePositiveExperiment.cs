using System.Globalization;
using EventFilter.Benchmarks.Workload;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>fpr</c>: the measured false-positive rate for each bits-per-name and k, next to the exact blocked model
/// (<see cref="FalsePositiveModel.Expected"/>) and the classic unblocked formula. "Bits per name" counts filter bits
/// (480 per line), as the published tables do; the file is 512/480 of that. 7.5 is EventStoreDB's sizing, one byte
/// of file per name. Each cell is a new filter with its own hash seed, so the cells are independent samples.
/// <c>fpr per-stream [names] [bytes per stream, comma-separated]</c> runs only the second table (<see cref="PerStream"/>),
/// by default at 10,000,000 names and 0.5, 1, 2 and 4 bytes per stream; one size a run keeps each run short.
/// </summary>
public static partial class FalsePositiveExperiment
{
    private const int AddedNames = 1 << 20;
    private const int QueryGenerations = 4; // 4 x 1M absent names per cell

    private static readonly double[] BytesPerStream = [0.5, 1, 2, 4];

    public static int Run(string[] args)
    {
        if (args.Length > 1 && args[1] == "per-stream")
        {
            int names = args.Length > 2 ? int.Parse(args[2], CultureInfo.InvariantCulture) : 10_000_000;
            double[] sizes = args.Length > 3 ? [.. args[3].Split(',').Select(b => double.Parse(b, CultureInfo.InvariantCulture))] : BytesPerStream;
            var absentPool = new StreamNames("ledger", Math.Min(names, AddedNames));
            PerStream.Run(names, sizes, new StreamNames("orders", names), absentPool, new bool[absentPool.Count]);
            return 0;
        }

        var added = new StreamNames("orders", AddedNames);
        var absent = new StreamNames("ledger", AddedNames);
        bool[] results = new bool[AddedNames];
        var rows = new List<string[]>();
        ulong seed = 1;
        foreach (double bitsPerName in new[] { 7.5, 8, 10, 16 })
        {
            long lines = (long)Math.Ceiling(AddedNames * bitsPerName / FilterGeometry.BitsPerLine);
            var cells = new List<(int K, double Measured, double HalfWidth)>();
            for (int k = 4; k <= 10; k++)
            {
                (double measured, double halfWidth) = Measure(lines, k, seed++, added, absent, results);
                cells.Add((k, measured, halfWidth));
            }

            int bestK = cells.MinBy(c => c.Measured).K;
            foreach ((int k, double measured, double halfWidth) in cells)
            {
                double model = FalsePositiveModel.Expected(AddedNames, lines, k);
                double classic = FalsePositiveModel.Classic(AddedNames, (double)lines * FilterGeometry.BitsPerLine, k);
                string mark = k == bestK ? "**" : "";
                rows.Add([
                    bitsPerName.ToString(CultureInfo.InvariantCulture),
                    k.ToString(CultureInfo.InvariantCulture),
                    $"{mark}{Percent(measured)} ± {Percent(halfWidth)}{mark}",
                    Percent(model),
                    (measured / model).ToString("F3", CultureInfo.InvariantCulture),
                    Percent(classic),
                ]);
            }

            Console.Error.WriteLine($"// {bitsPerName} bits per name done");
        }

        Console.WriteLine($"{AddedNames:N0} names added, {(long)AddedNames * QueryGenerations:N0} absent names queried per cell; ± is the 95% binomial interval; bold is the best measured k.");
        Console.WriteLine();
        MarkdownTable.Print(["bits/name", "k", "measured FPR", "blocked model", "measured/model", "classic formula"], rows);
        Console.WriteLine();
        PerStream.Run(AddedNames, BytesPerStream, added, absent, results);
        return 0;
    }

    private static (double Rate, double HalfWidth) Measure(long lines, int k, ulong seed, StreamNames added, StreamNames absent, bool[] results)
    {
        string path = BenchmarkDirectory.Scratch("fpr.filter");
        try
        {
            long sizeBytes = (lines + 1) * FilterGeometry.LineSize;
            using FilterFile filter = FilterFile.Create(path, new FilterFileOptions { SizeBytes = sizeBytes, K = k, Seed = seed });
            filter.AddBatch(added.Packed, added.Lengths);
            long positives = 0, queries = 0;
            for (int generation = 1; generation <= QueryGenerations; generation++)
            {
                // Rewriting the generation digits makes a fresh set of absent names, still disjoint from the added ones.
                absent.SetGeneration(generation);
                filter.MightExistBatch(absent.Packed, absent.Lengths, results);
                positives += results.Count(r => r);
                queries += results.Length;
            }

            double rate = (double)positives / queries;
            return (rate, 1.96 * Math.Sqrt(rate * (1 - rate) / queries));
        }
        finally
        {
            BenchmarkDirectory.DeleteQuietly(path);
        }
    }

    private static string Percent(double rate) => (rate * 100).ToString(rate < 0.001 ? "F4" : "F3", CultureInfo.InvariantCulture) + "%";
}
