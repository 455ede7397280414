using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// What the k that <see cref="StreamExistenceFilterOptions.ExpectedStreams"/> picks at 2 bytes per stream (9 bits per
/// lookup and per add) costs against k = 6, at 256 MiB and the load
/// that k is for: 128M names, 2 bytes of file each. Lookups of absent and present names, one at a time and in a batch,
/// and adds of new names. <c>--filter *ProbeCount*</c>; K = 6 is the baseline of each pair.
/// </summary>
public class ProbeCountBenchmarks
{
    private const int Names = StreamNames.PoolSize;
    private const long SizeBytes = 256L << 20;
    private const long LoadedNames = SizeBytes / 2;

    private FilterFile? _filter;
    private StreamNames _hits = null!;
    private StreamNames _misses = null!;
    private StreamNames _fresh = null!;
    private bool[] _results = null!;
    private int _generation;

    [Params(6, 9)]
    public int K { get; set; }

    [GlobalSetup(Targets = [nameof(MissUtf8), nameof(HitUtf8), nameof(MissBatch)])]
    public void SetupLookups()
    {
        _hits = StreamNames.Hits();
        _misses = StreamNames.Misses();
        _results = new bool[Names];
        _filter = LoadedFilters.OpenShared(SizeBytes, LoadedNames, K);
    }

    [GlobalSetup(Target = nameof(AddUtf8))]
    public void SetupAdds()
    {
        _fresh = StreamNames.Fresh();
        _filter = LoadedFilters.OpenCopy(SizeBytes, LoadedNames, K, "probe-count-add.filter");
    }

    /// <summary>Names the filter has never seen for every iteration: an add of a known name is only a lookup.</summary>
    [IterationSetup(Target = nameof(AddUtf8))]
    public void NextAddIteration() => _fresh.SetGeneration(++_generation);

    [GlobalCleanup]
    public void Cleanup() => _filter?.Dispose();

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissUtf8() => NameLoops.CountMaybe(_filter!, _misses.Utf8);

    [Benchmark(OperationsPerInvoke = Names)]
    public int HitUtf8() => NameLoops.CountMaybe(_filter!, _hits.Utf8);

    [Benchmark(OperationsPerInvoke = Names)]
    public bool MissBatch()
    {
        _filter!.MightExistBatch(_misses.Packed, _misses.Lengths, _results);
        return _results[0];
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public int AddUtf8() => NameLoops.CountAdded(_filter!, _fresh.Utf8);
}
