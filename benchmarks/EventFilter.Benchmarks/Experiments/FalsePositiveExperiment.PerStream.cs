using System.Globalization;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Experiments;

public static partial class FalsePositiveExperiment
{
    /// <summary>
    /// The second table of <c>fpr</c>: at 1 and 2 bytes of <c>stream-existence-filter-size</c> per stream, the same
    /// setting for every filter: ours as new files count it (filter bits, one line per 60 bytes), at the default k = 6
    /// and with <see cref="StreamExistenceFilterOptions.ExpectedStreams"/> choosing k; ours as files of format versions
    /// 1 and 2 count it (the file's length), which such files keep; and EventStoreDB's scheme (8 x setting filter bits,
    /// 6 probes anywhere by double hashing) beside the classic formula for it; and ours with each name over two lines.
    /// Each cell is <see cref="Filters"/>
    /// filters, each holding its own 1M added names, queried with 16M absent names: 64M queries, enough to resolve a 2%
    /// difference at 0.1%.
    /// </summary>
    private static class PerStream
    {
        private const int Filters = 4;
        private const int GenerationsPerFilter = 16;

        public static void Run(StreamNames added, StreamNames absent, bool[] results)
        {
            var rows = new List<string[]>();
            foreach (int bytesPerStream in new[] { 1, 2 })
            {
                long setting = (long)bytesPerStream * AddedNames;
                foreach (bool countsBits in new[] { true, false })
                {
                    long lines = FilterGeometry.For(setting, countsBits).LineCount;
                    int chosenK = FilterFileOptions.KFor(setting, AddedNames, countsBits);
                    string meaning = countsBits ? "ours, new file (setting = filter bits)" : "ours, earlier file (setting = file length)";
                    foreach ((string name, int k) in new[] { ($"{meaning}, k = 6 (default)", FilterFileOptions.DefaultK), ($"{meaning}, ExpectedStreams (k = {chosenK})", chosenK) })
                    {
                        (long positives, long queries) = Measure(i => Ours(setting, countsBits, k, (ulong)(i + 1)), added, absent, results);
                        rows.Add(Row(bytesPerStream, name, lines, positives, queries, Precise(FalsePositiveModel.Expected(AddedNames, lines, k))));
                    }
                }

                // Two lines per name (two cache misses a lookup), new files only: what spreading buys at the same setting.
                long newLines = FilterGeometry.FromFilterBits(setting).LineCount;
                int spreadK = Enumerable.Range(2, FilterFileOptions.MaxChosenK - 1).MinBy(k => FalsePositiveModel.Expected(AddedNames, newLines, k, 2));
                foreach (int k in new[] { FilterFileOptions.DefaultK, spreadK }.Distinct())
                {
                    (long positives, long queries) = Measure(i => Ours(setting, countsBits: true, k, (ulong)(i + 1), linesPerKey: 2), added, absent, results);
                    rows.Add(Row(bytesPerStream, $"ours, new file, 2 lines per name, k = {k}{(k == spreadK ? " (best)" : "")}", newLines, positives, queries, Precise(FalsePositiveModel.Expected(AddedNames, newLines, k, 2))));
                }

                (long classicPositives, long classicQueries) = Measure(_ => new ClassicQueries(setting), added, absent, results);
                double classicModel = FalsePositiveModel.Classic(AddedNames, setting * 8.0, ClassicBloomFilter.K);
                long classicLines = FilterGeometry.FromFilterBits(setting).LineCount;
                rows.Add(Row(bytesPerStream, "EventStoreDB's scheme, k = 6 anywhere", classicLines, classicPositives, classicQueries, Precise(classicModel) + " (classic formula)"));
                Console.Error.WriteLine($"// {bytesPerStream} byte(s) per stream done");
            }

            Console.WriteLine($"Same setting in every row: {AddedNames:N0} and {2 * AddedNames:N0} bytes. {Filters} filters of {AddedNames:N0} added names per cell, each queried with {(long)AddedNames * GenerationsPerFilter:N0} absent names; ± is the 95% binomial interval.");
            Console.WriteLine();
            MarkdownTable.Print(["bytes of setting/stream", "filter", "file bytes/stream", "measured FPR", "model", "absent names"], rows);
        }

        private static string[] Row(int bytesPerStream, string name, long lines, long positives, long queries, string model)
        {
            double rate = (double)positives / queries;
            double halfWidth = 1.96 * Math.Sqrt(rate * (1 - rate) / queries);
            return [
                bytesPerStream.ToString(CultureInfo.InvariantCulture),
                name,
                ((lines + 1.0) * FilterGeometry.LineSize / AddedNames).ToString("F3", CultureInfo.InvariantCulture),
                $"{Precise(rate)} ± {Precise(halfWidth)}",
                model,
                queries.ToString("N0", CultureInfo.InvariantCulture),
            ];
        }

        /// <summary>Four decimals of a percent: the differences here are a few thousandths of a percent.</summary>
        private static string Precise(double rate) => (rate * 100).ToString("F4", CultureInfo.InvariantCulture) + "%";

        /// <summary>Filter i holds the added names of generation 100 + i, so each filter has its own names; the absent names stay disjoint.</summary>
        private static (long Positives, long Queries) Measure(Func<int, IQueries> open, StreamNames added, StreamNames absent, bool[] results)
        {
            long positives = 0, queries = 0;
            for (int i = 0; i < Filters; i++)
            {
                added.SetGeneration(100 + i);
                using IQueries filter = open(i);
                filter.Add(added);
                for (int generation = 1; generation <= GenerationsPerFilter; generation++)
                {
                    absent.SetGeneration(generation);
                    filter.Query(absent, results);
                    positives += results.Count(r => r);
                    queries += results.Length;
                }
            }

            added.SetGeneration(0);
            return (positives, queries);
        }

        private static OurQueries Ours(long setting, bool countsBits, int k, ulong seed, int linesPerKey = 1) =>
            new(FilterFile.Create(BenchmarkDirectory.Scratch("fpr-per-stream.filter"), new FilterFileOptions { SizeBytes = setting, SizeCountsFilterBits = countsBits, K = k, Seed = seed, LinesPerKey = linesPerKey }));

        private interface IQueries : IDisposable
        {
            void Add(StreamNames names);

            void Query(StreamNames names, bool[] results);
        }

        private sealed class OurQueries(FilterFile filter) : IQueries
        {
            public void Add(StreamNames names) => filter.AddBatch(names.Packed, names.Lengths);

            public void Query(StreamNames names, bool[] results) => filter.MightExistBatch(names.Packed, names.Lengths, results);

            public void Dispose()
            {
                filter.Dispose();
                BenchmarkDirectory.DeleteQuietly(BenchmarkDirectory.Scratch("fpr-per-stream.filter"));
            }
        }

        private sealed class ClassicQueries(long sizeBytes) : IQueries
        {
            private readonly ClassicBloomFilter _filter = new(BenchmarkDirectory.Scratch("fpr-classic.filter"), sizeBytes, sizeCountsFilterBits: true);

            public void Add(StreamNames names)
            {
                foreach (byte[] name in names.Utf8)
                {
                    _filter.Add(name);
                }
            }

            public void Query(StreamNames names, bool[] results)
            {
                for (int i = 0; i < names.Count; i++)
                {
                    results[i] = _filter.MightExist(names.Utf8[i]);
                }
            }

            public void Dispose()
            {
                _filter.Dispose();
                BenchmarkDirectory.DeleteQuietly(_filter.Path);
            }
        }
    }
}
