using System.Diagnostics;
using EventFilter.Benchmarks.Peers;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// Filter files at design load, at the stream-existence filter's default k, that hold the hit names, built once per size and cached on disk: filling 1 GiB takes
/// minutes (a billion adds), and BenchmarkDotNet runs every case in a fresh process. Filler names are random 64-bit
/// hashes added with <see cref="FilterFile.AddHashes"/>; a real name's hash is uniformly random, so this is the same
/// filter a real workload would build, without keeping a billion names in memory.
/// </summary>
public static class LoadedFilters
{
    private const int FillChunk = 4096;

    /// <summary>Opens the cached loaded filter itself: for benchmarks that only look names up.</summary>
    public static FilterFile OpenShared(long sizeBytes) => FilterFile.Open(EnsureBuilt(sizeBytes), Options(sizeBytes));

    /// <summary>Opens a cached filter with <paramref name="k"/> probes that holds the hit names among <paramref name="names"/> in all.</summary>
    public static FilterFile OpenShared(long sizeBytes, long names, int k) => FilterFile.Open(EnsureBuilt(sizeBytes, names, k, withHits: true), Options(sizeBytes));

    /// <summary>Copies the cached loaded filter to a scratch file and opens that: for benchmarks that add.</summary>
    public static FilterFile OpenCopy(long sizeBytes, string scratchName) => OpenCopy(EnsureBuilt(sizeBytes), sizeBytes, scratchName);

    /// <summary><see cref="OpenCopy(long, string)"/> of the filter <see cref="OpenShared(long, long, int)"/> opens.</summary>
    public static FilterFile OpenCopy(long sizeBytes, long names, int k, string scratchName) =>
        OpenCopy(EnsureBuilt(sizeBytes, names, k, withHits: true), sizeBytes, scratchName);

    private static FilterFile OpenCopy(string cached, long sizeBytes, string scratchName)
    {
        string copy = BenchmarkDirectory.Scratch(scratchName);
        File.Copy(cached, copy, overwrite: true);
        return FilterFile.Open(copy, Options(sizeBytes));
    }

    /// <summary>
    /// A classic peer at design load that holds <paramref name="hits"/>, in a scratch file the caller deletes. With
    /// <paramref name="sizeCountsFilterBits"/>, <paramref name="sizeBytes"/> is EventStoreDB's setting (8 bits a byte).
    /// </summary>
    public static ClassicBloomFilter CreateClassic(long sizeBytes, StreamNames hits, string scratchName, bool sizeCountsFilterBits = false)
    {
        var classic = new ClassicBloomFilter(BenchmarkDirectory.Scratch(scratchName), sizeBytes, sizeCountsFilterBits);
        long filler = DesignLoad.FillerNames(sizeBytes, hits.Count);
        double bits = sizeCountsFilterBits ? sizeBytes * 8.0 : (double)classic.LineCount * FilterGeometry.BitsPerLine;
        classic.FillRandomly(DesignLoad.ClassicFillRatio(filler, bits, ClassicBloomFilter.K), seed: 0xC1A5_51C0);
        foreach (byte[] name in hits.Utf8)
        {
            classic.Add(name);
        }

        classic.MarkAllDirty();
        classic.Flush();
        return classic;
    }

    /// <summary>The options of a new benchmark filter: the size, and <see cref="K"/> (an open file keeps the k in its header).</summary>
    public static FilterFileOptions Options(long sizeBytes) => new() { SizeBytes = sizeBytes, K = K };

    /// <summary>Builds a filter at <paramref name="sizeBytes"/> with <paramref name="names"/> random hashes (no hit names) unless cached.</summary>
    public static string EnsureBuilt(long sizeBytes, long? names = null) =>
        names is null
            ? EnsureBuilt(sizeBytes, DesignLoad.Names(sizeBytes), K, withHits: true)
            : EnsureBuilt(sizeBytes, names.Value, K, withHits: false);

    /// <summary>
    /// The loaded filters' k: the stream-existence filter's default, or <c>EVENTFILTER_BENCH_K</c>, so that one build's
    /// hot path can be timed at another build's default (docs/benchmarks-micro.md, "Before and after").
    /// </summary>
    public static int K { get; } =
        Environment.GetEnvironmentVariable("EVENTFILTER_BENCH_K") is { Length: > 0 } k
            ? int.Parse(k, System.Globalization.CultureInfo.InvariantCulture)
            : StreamExistenceFilterOptions.DefaultK;

    /// <summary>
    /// A filter with <paramref name="k"/> probes holding <paramref name="names"/> names in all: random hashes, and the
    /// hit pool among them when <paramref name="withHits"/>. Cached by size, count and k; k = 6, the default before
    /// <see cref="StreamExistenceFilterOptions.DefaultK"/>, keeps the names without a k, so no cache built at 6 serves another k.
    /// </summary>
    private static string EnsureBuilt(long sizeBytes, long names, int k, bool withHits)
    {
        long filler = withHits ? Math.Max(0, names - StreamNames.PoolSize) : names;
        string probes = k == 6 ? "" : $"-k{k}";
        string path = BenchmarkDirectory.Cached($"loaded-v{FilterHeader.CurrentVersion}-{sizeBytes >> 20}MiB-{filler}{probes}{(withHits ? "-hits" : "")}.filter");
        if (File.Exists(path))
        {
            return path;
        }

        string building = path + ".building";
        BenchmarkDirectory.DeleteQuietly(building);
        var started = Stopwatch.StartNew();
        using (FilterFile filter = FilterFile.Create(building, new FilterFileOptions { SizeBytes = sizeBytes, K = k }))
        {
            AddRandomHashes(filter, filler, path);
            if (withHits)
            {
                StreamNames hits = StreamNames.Hits();
                filter.AddBatch(hits.Packed, hits.Lengths);
            }

            filter.FoldJournal(); // one plain file: the cache is copied file by file
        }

        File.Move(building, path, overwrite: true);
        Console.WriteLine($"// built {path} in {started.Elapsed.TotalSeconds:F1} s");
        return path;
    }

    /// <summary>Adds on every core; adds are thread-safe, and a 1 GiB filter takes a billion of them.</summary>
    private static void AddRandomHashes(FilterFile filter, long count, string forWhat)
    {
        int workers = Environment.ProcessorCount;
        long done = 0;
        long reportEvery = Math.Max(count / 10, 1);
        Parallel.For(0, workers, worker =>
        {
            var random = new SplitMix64(0xF111_0000UL + (ulong)worker);
            ulong[] hashes = new ulong[FillChunk];
            long mine = (count / workers) + (worker < count % workers ? 1 : 0);
            for (long added = 0; added < mine; added += FillChunk)
            {
                int n = (int)Math.Min(FillChunk, mine - added);
                for (int i = 0; i < n; i++)
                {
                    hashes[i] = random.Next();
                }

                filter.AddHashes(hashes.AsSpan(0, n));
                long total = Interlocked.Add(ref done, n);
                if (total / reportEvery != (total - n) / reportEvery)
                {
                    Console.WriteLine($"// filling {forWhat}: {100.0 * total / count:F0}%");
                }
            }
        });
    }
}
