using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// One <c>Add</c> call per new name, into a filter at design load, next to the classic peer. Every iteration gets
/// names the filter has never seen (the pool's generation digits are rewritten in the iteration setup), because an
/// add of a known name is only a lookup. A filter below 64 MiB is also reset to design load before each iteration:
/// a million new names would otherwise overfill it within a few iterations.
/// </summary>
public class AddBenchmarks : FilterSizeBenchmark
{
    private const long ResetBelowBytes = 64L << 20;

    private FilterFile? _filter;
    private ClassicBloomFilter? _classic;
    private StreamNames _names = null!;
    private StreamNames _classicHits = null!;
    private int _generation;

    [GlobalSetup(Targets = [nameof(AddString), nameof(AddUtf8)])]
    public void SetupFilter()
    {
        _names = StreamNames.Fresh();
        _filter = LoadedFilters.OpenCopy(SizeBytes, "add.filter");
    }

    [IterationSetup(Targets = [nameof(AddString), nameof(AddUtf8)])]
    public void NextFilterIteration()
    {
        _names.SetGeneration(++_generation);
        if (SizeBytes < ResetBelowBytes)
        {
            _filter!.Dispose();
            _filter = LoadedFilters.OpenCopy(SizeBytes, "add.filter");
        }
    }

    /// <summary>
    /// Does nothing, on purpose: a benchmark with an iteration setup runs one invocation per iteration, and only
    /// benchmarks run the same way share a summary group, so without this the baseline would not give the Ratio column.
    /// </summary>
    [IterationSetup(Target = nameof(PointerChase))]
    public void RunBaselineLikeTheAdds()
    {
    }

    [GlobalSetup(Target = nameof(ClassicAddString))]
    public void SetupClassic()
    {
        _names = StreamNames.Fresh();
        _classicHits = StreamNames.Hits();
        _classic = LoadedFilters.CreateClassic(SizeBytes, _classicHits, "classic-add.filter");
    }

    [IterationSetup(Target = nameof(ClassicAddString))]
    public void NextClassicIteration()
    {
        _names.SetGeneration(++_generation);
        if (SizeBytes < ResetBelowBytes)
        {
            _classic!.Dispose();
            _classic = LoadedFilters.CreateClassic(SizeBytes, _classicHits, "classic-add.filter");
        }
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public int AddString() => NameLoops.CountAdded(_filter!, _names.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int AddUtf8() => NameLoops.CountAdded(_filter!, _names.Utf8);

    [Benchmark(OperationsPerInvoke = Names)]
    public int ClassicAddString()
    {
        int changed = 0;
        foreach (string name in _names.Strings)
        {
            changed += _classic!.Add(name) ? 1 : 0;
        }

        return changed;
    }

    protected override void ReleaseResources()
    {
        if (_filter is not null)
        {
            _filter.Dispose();
            BenchmarkDirectory.DeleteQuietly(_filter.Path);
        }

        if (_classic is not null)
        {
            _classic.Dispose();
            BenchmarkDirectory.DeleteQuietly(_classic.Path);
        }
    }
}
