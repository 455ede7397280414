using System.Globalization;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Experiments;

public static partial class FalsePositiveExperiment
{
    /// <summary>
    /// The second table of <c>fpr</c>: at 1 and 2 bytes of file per stream, our filter at the default k = 6, ours with
    /// <see cref="StreamExistenceFilterOptions.ExpectedStreams"/> choosing k, and the classic peer (EventStoreDB's
    /// design, 6 probes anywhere in the file) at the same file size. Each cell is <see cref="Filters"/> filters, each
    /// holding its own 1M added names, queried with 16M absent names: 64M queries, enough to resolve a 2% difference at 0.13%.
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
                long sizeBytes = (long)bytesPerStream * AddedNames;
                long lines = FalsePositiveModel.LinesFor(sizeBytes);
                int chosenK = new StreamExistenceFilterOptions { DataDirectory = ".", SizeBytes = sizeBytes, ExpectedStreams = AddedNames }
                    .ToFileOptions(sizeBytes).K;
                foreach ((string name, int k) in new[] { ("ours, k = 6 (default)", FilterFileOptions.DefaultK), ($"ours, ExpectedStreams (k = {chosenK})", chosenK) })
                {
                    (long positives, long queries) = Measure(i => Ours(sizeBytes, k, (ulong)(i + 1)), added, absent, results);
                    rows.Add(Row(bytesPerStream, name, positives, queries, Precise(FalsePositiveModel.Expected(AddedNames, lines, k))));
                }

                (long classicPositives, long classicQueries) = Measure(_ => new ClassicQueries(sizeBytes), added, absent, results);
                double classicModel = FalsePositiveModel.Classic(AddedNames, (double)lines * FilterGeometry.BitsPerLine, ClassicBloomFilter.K);
                rows.Add(Row(bytesPerStream, "classic peer, k = 6", classicPositives, classicQueries, Precise(classicModel)));
                Console.Error.WriteLine($"// {bytesPerStream} byte(s) per stream done");
            }

            Console.WriteLine($"{Filters} filters of {AddedNames:N0} added names per cell, each queried with {(long)AddedNames * GenerationsPerFilter:N0} absent names; ± is the 95% binomial interval.");
            Console.WriteLine();
            MarkdownTable.Print(["bytes/stream", "filter", "measured FPR", "model", "absent names"], rows);
        }

        private static string[] Row(int bytesPerStream, string name, long positives, long queries, string model)
        {
            double rate = (double)positives / queries;
            double halfWidth = 1.96 * Math.Sqrt(rate * (1 - rate) / queries);
            return [
                bytesPerStream.ToString(CultureInfo.InvariantCulture),
                name,
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

        private static OurQueries Ours(long sizeBytes, int k, ulong seed) =>
            new(FilterFile.Create(BenchmarkDirectory.Scratch("fpr-per-stream.filter"), new FilterFileOptions { SizeBytes = sizeBytes, K = k, Seed = seed }));

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
            private readonly ClassicBloomFilter _filter = new(BenchmarkDirectory.Scratch("fpr-classic.filter"), sizeBytes);

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
