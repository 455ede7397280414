using System.Globalization;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Experiments;

public static partial class FalsePositiveExperiment
{
    /// <summary>
    /// The second table of <c>fpr</c>: at 0.5 to 4 bytes of <c>stream-existence-filter-size</c> per stream, the same
    /// setting for every filter: ours as new files count it (filter bits, one line per 60 bytes), at the default k
    /// (<see cref="StreamExistenceFilterOptions.DefaultK"/>), at k = 6 (the default of files made before it), and with
    /// <see cref="StreamExistenceFilterOptions.ExpectedStreams"/> choosing k; ours as files of format versions 1 and 2
    /// count it (the file's length), which such files keep with their k; ours with each name over two lines; and
    /// EventStoreDB's scheme (8 x setting filter bits, 6 probes anywhere by double hashing) beside the classic formula
    /// for it. Each cell is as many filters as make 4M added names (one at 4M names and more), each holding its own
    /// names, queried with 64M absent names in all: enough to resolve a 2% difference at 0.1%.
    /// </summary>
    private static class PerStream
    {
        private const long AddedPerCell = 4L << 20;
        private const long AbsentPerCell = 64L << 20;

        public static void Run(int names, double[] bytesPerStreamList, StreamNames added, StreamNames absent, bool[] results)
        {
            int filters = (int)Math.Max(1, AddedPerCell / names);
            int generations = (int)(AbsentPerCell / filters / results.Length);
            var rows = new List<string[]>();
            foreach (double bytesPerStream in bytesPerStreamList)
            {
                long setting = (long)Math.Round(bytesPerStream * names);
                var cell = new Cell(names, filters, generations, bytesPerStream);
                foreach (bool countsBits in new[] { true, false })
                {
                    long lines = FilterGeometry.For(setting, countsBits).LineCount;
                    int chosenK = FilterFileOptions.KFor(setting, names, countsBits);
                    string meaning = countsBits ? "ours, new file (setting = filter bits)" : "ours, earlier file (setting = file length)";
                    var ks = new List<(string Name, int K)>();
                    if (countsBits)
                    {
                        ks.Add(($"{meaning}, k = {StreamExistenceFilterOptions.DefaultK} (default)", StreamExistenceFilterOptions.DefaultK));
                    }

                    ks.Add(($"{meaning}, k = 6{(countsBits ? " (files made before the default)" : "")}", 6));
                    ks.Add(($"{meaning}, ExpectedStreams (k = {chosenK})", chosenK));
                    foreach ((string name, int k) in ks)
                    {
                        (long positives, long queries) = cell.Measure(i => Ours(setting, countsBits, k, (ulong)(i + 1)), added, absent, results);
                        rows.Add(cell.Row(name, lines, positives, queries, Precise(FalsePositiveModel.Expected(names, lines, k))));
                    }
                }

                // Two lines per name (two cache misses a lookup), new files only: what spreading buys at the same setting.
                long newLines = FilterGeometry.FromFilterBits(setting).LineCount;
                int spreadK = Enumerable.Range(2, FilterFileOptions.MaxChosenK - 1).MinBy(k => FalsePositiveModel.Expected(names, newLines, k, 2));
                (long spreadPositives, long spreadQueries) = cell.Measure(i => Ours(setting, countsBits: true, spreadK, (ulong)(i + 1), linesPerKey: 2), added, absent, results);
                rows.Add(cell.Row($"ours, new file, 2 lines per name, k = {spreadK} (best)", newLines, spreadPositives, spreadQueries, Precise(FalsePositiveModel.Expected(names, newLines, spreadK, 2))));

                (long classicPositives, long classicQueries) = cell.Measure(_ => new ClassicQueries(setting), added, absent, results);
                double classicModel = FalsePositiveModel.Classic(names, setting * 8.0, ClassicBloomFilter.K);
                rows.Add(cell.Row("EventStoreDB's scheme, k = 6 anywhere", newLines, classicPositives, classicQueries, Precise(classicModel) + " (classic formula)"));
                Console.Error.WriteLine($"// {bytesPerStream} byte(s) per stream done");
            }

            Console.WriteLine($"{filters} filter(s) of {names:N0} added names per cell, each queried with {(long)results.Length * generations:N0} absent names; ± is the 95% binomial interval.");
            Console.WriteLine();
            MarkdownTable.Print(["bytes of setting/stream", "filter", "file bytes/stream", "measured FPR", "model", "absent names"], rows);
        }

        /// <summary>One size's cells: how many filters, how many absent generations each, and how a row reads.</summary>
        private sealed class Cell(int names, int filters, int generations, double bytesPerStream)
        {
            public string[] Row(string name, long lines, long positives, long queries, string model) =>
                PerStream.Row(bytesPerStream, names, name, lines, positives, queries, model);

            /// <summary>Filter i holds the added names of generation 100 + i, so each filter has its own names; the absent names stay disjoint.</summary>
            public (long Positives, long Queries) Measure(Func<int, IQueries> open, StreamNames added, StreamNames absent, bool[] results)
            {
                long positives = 0, queries = 0;
                for (int i = 0; i < filters; i++)
                {
                    added.SetGeneration(100 + i);
                    using IQueries filter = open(i);
                    filter.Add(added);
                    for (int generation = 1; generation <= generations; generation++)
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
        }

        private static string[] Row(double bytesPerStream, int names, string name, long lines, long positives, long queries, string model)
        {
            double rate = (double)positives / queries;
            double halfWidth = 1.96 * Math.Sqrt(rate * (1 - rate) / queries);
            return [
                bytesPerStream.ToString(CultureInfo.InvariantCulture),
                name,
                ((lines + 1.0) * FilterGeometry.LineSize / names).ToString("F3", CultureInfo.InvariantCulture),
                $"{Precise(rate)} ± {Precise(halfWidth)}",
                model,
                queries.ToString("N0", CultureInfo.InvariantCulture),
            ];
        }

        /// <summary>Four decimals of a percent, five below 0.01%: the differences here are a few thousandths of a percent.</summary>
        private static string Precise(double rate) => (rate * 100).ToString(rate < 1e-4 ? "F5" : "F4", CultureInfo.InvariantCulture) + "%";

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
