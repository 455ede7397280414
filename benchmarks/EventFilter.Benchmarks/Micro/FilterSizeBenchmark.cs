using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// What every per-operation class shares: the filter size, and the same-run physical limit as the baseline, so the
/// Ratio column reads "cost of one name in units of one random memory access over a buffer of the filter's size".
/// Every benchmark walks a whole pool of <see cref="StreamNames.PoolSize"/> names per invocation, so times are per name.
/// </summary>
public abstract class FilterSizeBenchmark
{
    protected const int Names = StreamNames.PoolSize;

    private PointerChaseBuffer? _chase;

    /// <summary>
    /// Filter size in MiB: 1 fits in cache; 256 (EventStoreDB's default) and 1024 are far beyond it.
    /// <c>EVENTFILTER_BENCH_SIZES_MIB=256</c> (a comma-separated list) runs only those.
    /// </summary>
    [ParamsSource(nameof(Sizes))]
    public int SizeMiB { get; set; }

    public static IEnumerable<int> Sizes =>
        Environment.GetEnvironmentVariable("EVENTFILTER_BENCH_SIZES_MIB") is { Length: > 0 } list
            ? list.Split(',').Select(size => int.Parse(size, System.Globalization.CultureInfo.InvariantCulture))
            : [1, 256, 1024];

    protected long SizeBytes => (long)SizeMiB << 20;

    [GlobalSetup(Target = nameof(PointerChase))]
    public void SetupPointerChase() => _chase = new PointerChaseBuffer(SizeBytes, hugePages: false);

    /// <summary>One dependent random access per "name", over 4 KiB pages like the filter's mapping.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Names)]
    public uint PointerChase() => _chase!.Walk(Names);

    [GlobalCleanup]
    public void Cleanup()
    {
        _chase?.Dispose();
        ReleaseResources();
    }

    protected abstract void ReleaseResources();

    protected static int CountTrue(ReadOnlySpan<bool> results)
    {
        int count = 0;
        foreach (bool result in results)
        {
            count += result ? 1 : 0;
        }

        return count;
    }
}
