using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// The batch add forms over new names, a batch of <see cref="BatchSize"/> names per call: <c>AddBatch(strings)</c>
/// and the packed UTF-8 <c>AddBatch(bytes, lengths)</c> a catch-up reader would use. Same new-name and reset rules
/// as <see cref="AddBenchmarks"/>.
/// </summary>
public class AddBatchBenchmarks : FilterSizeBenchmark
{
    private const long ResetBelowBytes = 64L << 20;

    private FilterFile? _filter;
    private StreamNames _names = null!;
    private int _generation;

    [Params(16, 64, 256)]
    public int BatchSize { get; set; }

    [GlobalSetup(Targets = [nameof(AddBatchString), nameof(AddBatchUtf8)])]
    public void SetupFilter()
    {
        _names = StreamNames.Fresh();
        _filter = LoadedFilters.OpenCopy(SizeBytes, "add-batch.filter");
    }

    [IterationSetup(Targets = [nameof(AddBatchString), nameof(AddBatchUtf8)])]
    public void NextIteration()
    {
        _names.SetGeneration(++_generation);
        if (SizeBytes < ResetBelowBytes)
        {
            _filter!.Dispose();
            _filter = LoadedFilters.OpenCopy(SizeBytes, "add-batch.filter");
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

    [Benchmark(OperationsPerInvoke = Names)]
    public void AddBatchString()
    {
        ReadOnlySpan<string> names = _names.Strings;
        for (int start = 0; start < names.Length; start += BatchSize)
        {
            _filter!.AddBatch(names.Slice(start, BatchSize));
        }
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public void AddBatchUtf8()
    {
        ReadOnlySpan<byte> packed = _names.Packed;
        ReadOnlySpan<int> lengths = _names.Lengths;
        int bytesPerBatch = BatchSize * StreamNames.NameLength;
        for (int start = 0; start < lengths.Length; start += BatchSize)
        {
            _filter!.AddBatch(packed.Slice(start * StreamNames.NameLength, bytesPerBatch), lengths.Slice(start, BatchSize));
        }
    }

    protected override void ReleaseResources()
    {
        if (_filter is not null)
        {
            _filter.Dispose();
            BenchmarkDirectory.DeleteQuietly(_filter.Path);
        }
    }
}
