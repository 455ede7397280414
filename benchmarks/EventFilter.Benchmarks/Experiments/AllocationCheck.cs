using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>alloccheck</c>: runs every hot-path operation after warm-up and fails (exit code 1) if any of them moved
/// <see cref="GC.GetAllocatedBytesForCurrentThread"/> in every one of its measured rounds. Run by .ci/extra, so a change that makes the hot path allocate
/// breaks the build instead of a production heap.
/// </summary>
public static class AllocationCheck
{
    private const int PoolNames = 4096;
    private const int WarmUpRounds = 50;
    private const int MeasuredRounds = 5;

    public static int Run()
    {
        string path = BenchmarkDirectory.Scratch("alloccheck.filter");
        string hosted = BenchmarkDirectory.Scratch("alloccheck-host");
        try
        {
            using FilterFile filter = FilterFile.Create(path, LoadedFilters.Options(4 << 20));

            // The host's API too: a StreamExistenceFilter over an empty log is ready at once.
            using var host = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = hosted, SizeBytes = 4 << 20 }, new PackedNameLog([]));
            host.Open();
            host.CatchUpAsync(CancellationToken.None).GetAwaiter().GetResult();
            var fresh = new StreamNames("signup", PoolNames);
            var present = new StreamNames("orders", PoolNames);
            filter.AddBatch(present.Packed, present.Lengths);
            var absent = new StreamNames("ledger", PoolNames);
            bool[] results = new bool[PoolNames];
            ulong[] hashes = present.Utf8.Select(name => filter.Hash(name)).ToArray();

            var checks = new List<(string Name, Action Run)>
            {
                ("Add(string)", () => { foreach (string n in fresh.Strings) { filter.Add(n); } }),
                ("Add(utf8)", () => { foreach (byte[] n in fresh.Utf8) { filter.Add(n); } }),
                ("MightExist(string) hit", () => { foreach (string n in present.Strings) { filter.MightExist(n); } }),
                ("MightExist(string) miss", () => { foreach (string n in absent.Strings) { filter.MightExist(n); } }),
                ("MightExist(utf8) hit", () => { foreach (byte[] n in present.Utf8) { filter.MightExist(n); } }),
                ("MightExist(utf8) miss", () => { foreach (byte[] n in absent.Utf8) { filter.MightExist(n); } }),
                ("AddHashes", () => filter.AddHashes(hashes)),
                ("MightExistHashes", () => filter.MightExistHashes(hashes, results)),
            };
            foreach (int batch in new[] { 16, 64, 256 })
            {
                // Explicit loops, not a helper taking a lambda: a capturing lambda made per run would itself allocate.
                checks.Add(($"AddBatch(string[]) x{batch}", () =>
                {
                    for (int s = 0; s < PoolNames; s += batch)
                    {
                        filter.AddBatch(fresh.Strings.AsSpan(s, batch));
                    }
                }));
                checks.Add(($"AddBatch(utf8 packed) x{batch}", () =>
                {
                    for (int s = 0; s < PoolNames; s += batch)
                    {
                        filter.AddBatch(Packed(fresh, s, batch), fresh.Lengths.AsSpan(s, batch));
                    }
                }));
                checks.Add(($"MightExistBatch(string[]) x{batch}", () =>
                {
                    for (int s = 0; s < PoolNames; s += batch)
                    {
                        filter.MightExistBatch(absent.Strings.AsSpan(s, batch), results);
                    }
                }));
                checks.Add(($"StreamExistenceFilter.MightExist(string[]) x{batch}", () =>
                {
                    for (int s = 0; s < PoolNames; s += batch)
                    {
                        host.MightExist(absent.Strings.AsSpan(s, batch), results);
                    }
                }));
                checks.Add(($"MightExistBatch(utf8 packed) x{batch}", () =>
                {
                    for (int s = 0; s < PoolNames; s += batch)
                    {
                        filter.MightExistBatch(Packed(present, s, batch), present.Lengths.AsSpan(s, batch), results);
                    }
                }));
            }

            // A catch-up's batch: 4,096 names on one thread, and 65,536 on every core (the threads' steps included).
            using var adder = new Blocked.RegionAdder(Environment.ProcessorCount);
            StreamNameBatch catchUpSmall = CatchUpBatch(fresh.Utf8), catchUpLarge = CatchUpBatch(new StreamNames("catchu", Blocked.RegionAdder.ParallelMinimum).Utf8);
            checks.Add(("AddBatch(catch-up batch) x4096, by region", () => filter.AddBatch(catchUpSmall, adder)));
            checks.Add(("AddBatch(catch-up batch) x65536, by region, all cores", () => filter.AddBatch(catchUpLarge, adder)));

            int generation = 0;
            var rows = new List<string[]>();
            int failures = 0;
            foreach ((string name, Action run) in checks)
            {
                for (int i = 0; i < WarmUpRounds; i++)
                {
                    fresh.SetGeneration(++generation);
                    run();
                }

                // New names for each measured round, so adds take the path that sets bits, not the all-set shortcut.
                // The least of a few rounds counts: a tier-up or on-stack replacement compiled on this thread can
                // allocate in any one round, while an allocation the operation makes shows in every round.
                long allocated = long.MaxValue;
                for (int round = 0; round < MeasuredRounds && allocated != 0; round++)
                {
                    fresh.SetGeneration(++generation);
                    long before = GC.GetAllocatedBytesForCurrentThread();
                    run();
                    allocated = Math.Min(allocated, GC.GetAllocatedBytesForCurrentThread() - before);
                }

                failures += allocated == 0 ? 0 : 1;
                rows.Add([name, PoolNames.ToString(), allocated.ToString(), allocated == 0 ? "ok" : "ALLOCATES"]);
            }

            MarkdownTable.Print(["operation", "names", "bytes allocated", "result"], rows);
            Console.WriteLine(failures == 0
                ? $"alloccheck: {checks.Count} hot-path operations allocated nothing"
                : $"alloccheck: {failures} of {checks.Count} hot-path operations allocated");
            return failures == 0 ? 0 : 1;
        }
        finally
        {
            BenchmarkDirectory.DeleteQuietly(path);
            if (Directory.Exists(hosted))
            {
                Directory.Delete(hosted, recursive: true);
            }
        }
    }

    private static StreamNameBatch CatchUpBatch(byte[][] names)
    {
        var batch = new StreamNameBatch(names.Length, names.Sum(n => n.Length));
        foreach (byte[] name in names)
        {
            batch.TryAdd(name);
        }

        return batch;
    }

    private static ReadOnlySpan<byte> Packed(StreamNames names, int start, int count) =>
        names.Packed.AsSpan(start * StreamNames.NameLength, count * StreamNames.NameLength);
}
