using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// One <c>MightExist</c> call per name, for names that were added (hits) and names that never were (misses, a disjoint
/// pool), in the string and UTF-8 forms, next to the classic 6-probe peer at the same size and load.
/// Each method returns how many names answered "maybe", so nothing can be optimised away.
/// </summary>
public class MightExistBenchmarks : FilterSizeBenchmark
{
    private FilterFile? _filter;
    private ClassicBloomFilter? _classic;
    private PointerChaseBuffer? _hugePageChase;
    private StreamNames _hits = null!;
    private StreamNames _misses = null!;

    [GlobalSetup(Targets = [nameof(HitString), nameof(HitUtf8), nameof(MissString), nameof(MissUtf8)])]
    public void SetupFilter()
    {
        _hits = StreamNames.Hits();
        _misses = StreamNames.Misses();
        _filter = LoadedFilters.OpenShared(SizeBytes);
    }

    [GlobalSetup(Targets = [nameof(ClassicHitString), nameof(ClassicMissString)])]
    public void SetupClassic()
    {
        _hits = StreamNames.Hits();
        _misses = StreamNames.Misses();
        // At the same setting as ours, counted as EventStoreDB counts it: 8 bits a byte, 6 probes anywhere.
        _classic = LoadedFilters.CreateClassic(SizeBytes, _hits, "classic-lookup.filter", sizeCountsFilterBits: true);
    }

    [GlobalSetup(Target = nameof(PointerChaseHugePages))]
    public void SetupHugePageChase() => _hugePageChase = new PointerChaseBuffer(SizeBytes, hugePages: true);

    [Benchmark(OperationsPerInvoke = Names)]
    public int HitString() => NameLoops.CountMaybe(_filter!, _hits.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int HitUtf8() => NameLoops.CountMaybe(_filter!, _hits.Utf8);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissString() => NameLoops.CountMaybe(_filter!, _misses.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissUtf8() => NameLoops.CountMaybe(_filter!, _misses.Utf8);

    [Benchmark(OperationsPerInvoke = Names)]
    public int ClassicHitString()
    {
        int maybe = 0;
        foreach (string name in _hits.Strings)
        {
            maybe += _classic!.MightExist(name) ? 1 : 0;
        }

        return maybe;
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public int ClassicMissString()
    {
        int maybe = 0;
        foreach (string name in _misses.Strings)
        {
            maybe += _classic!.MightExist(name) ? 1 : 0;
        }

        return maybe;
    }

    /// <summary>The baseline again on 2 MiB pages: how much of a random access is the page walk.</summary>
    [Benchmark(OperationsPerInvoke = Names)]
    public uint PointerChaseHugePages() => _hugePageChase!.Walk(Names);

    protected override void ReleaseResources()
    {
        _filter?.Dispose();
        _hugePageChase?.Dispose();
        if (_classic is not null)
        {
            _classic.Dispose();
            BenchmarkDirectory.DeleteQuietly(_classic.Path);
        }
    }
}
