using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// The batch lookup forms, <see cref="BatchSize"/> names per call, for hits and misses, over strings and over packed
/// UTF-8. This is where hashing a chunk first and prefetching its lines should beat one random access per name.
/// </summary>
public class MightExistBatchBenchmarks : FilterSizeBenchmark
{
    private FilterFile? _filter;
    private StreamNames _hits = null!;
    private StreamNames _misses = null!;
    private bool[] _results = null!;

    [Params(16, 64, 256)]
    public int BatchSize { get; set; }

    [GlobalSetup(Targets = [nameof(HitString), nameof(HitUtf8), nameof(MissString), nameof(MissUtf8)])]
    public void SetupFilter()
    {
        _hits = StreamNames.Hits();
        _misses = StreamNames.Misses();
        _results = new bool[BatchSize];
        _filter = LoadedFilters.OpenShared(SizeBytes);
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public int HitString() => LookUp(_hits.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int HitUtf8() => LookUp(_hits);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissString() => LookUp(_misses.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissUtf8() => LookUp(_misses);

    protected override void ReleaseResources() => _filter?.Dispose();

    private int LookUp(ReadOnlySpan<string> names)
    {
        int maybe = 0;
        for (int start = 0; start < names.Length; start += BatchSize)
        {
            _filter!.MightExistBatch(names.Slice(start, BatchSize), _results);
            maybe += CountTrue(_results);
        }

        return maybe;
    }

    private int LookUp(StreamNames names)
    {
        ReadOnlySpan<byte> packed = names.Packed;
        ReadOnlySpan<int> lengths = names.Lengths;
        int bytesPerBatch = BatchSize * StreamNames.NameLength;
        int maybe = 0;
        for (int start = 0; start < lengths.Length; start += BatchSize)
        {
            _filter!.MightExistBatch(packed.Slice(start * StreamNames.NameLength, bytesPerBatch), lengths.Slice(start, BatchSize), _results);
            maybe += CountTrue(_results);
        }

        return maybe;
    }
}
