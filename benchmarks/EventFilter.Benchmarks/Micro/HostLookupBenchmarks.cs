using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// Lookups through the host's API, <see cref="StreamExistenceFilter"/> over a filter at design load (1 byte per name),
/// beside the same-run pointer chase: one <c>MightExist</c> per name, hits and misses, and the batch form a group commit
/// uses (<see cref="BatchSize"/> names per call, misses: new streams). Each method returns how many names answered
/// "maybe", so nothing is optimised away.
/// </summary>
public class HostLookupBenchmarks
{
    private const int Names = StreamNames.PoolSize;
    private const int BatchSize = 64;

    private PointerChaseBuffer? _chase;
    private StreamExistenceFilter? _filter;
    private string? _directory;
    private StreamNames _hits = null!;
    private StreamNames _misses = null!;
    private bool[] _results = null!;

    [Params(1, 256)]
    public int SizeMiB { get; set; }

    private long SizeBytes => (long)SizeMiB << 20;

    [GlobalSetup(Target = nameof(PointerChase))]
    public void SetupPointerChase() => _chase = new PointerChaseBuffer(SizeBytes, hugePages: false);

    [GlobalSetup(Targets = [nameof(MightExistHit), nameof(MightExistMiss), nameof(MightExistBatchMiss)])]
    public void Setup()
    {
        _hits = StreamNames.Hits();
        _misses = StreamNames.Misses();
        _results = new bool[BatchSize];

        // The loaded file as the serving filter of an empty log: no checkpoint, so the open keeps its bits and the
        // catch-up from position 0 finds nothing to read.
        _directory = BenchmarkDirectory.Scratch("host-lookups");
        Directory.CreateDirectory(_directory);
        var options = new StreamExistenceFilterOptions { DataDirectory = _directory, SizeBytes = SizeBytes };
        File.Copy(LoadedFilters.EnsureBuilt(SizeBytes), options.FilterPath, overwrite: true);
        _filter = new StreamExistenceFilter(options, new PackedNameLog([]));
        _filter.Open();
        _filter.CatchUpAsync(CancellationToken.None).GetAwaiter().GetResult();
    }

    /// <summary>One dependent random access per name over a buffer of the filter's size: the physical limit.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Names)]
    public uint PointerChase() => _chase!.Walk(Names);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MightExistHit() => CountMaybe(_hits.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MightExistMiss() => CountMaybe(_misses.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MightExistBatchMiss()
    {
        ReadOnlySpan<string> names = _misses.Strings;
        int maybe = 0;
        for (int start = 0; start < names.Length; start += BatchSize)
        {
            _filter!.MightExist(names.Slice(start, BatchSize), _results);
            foreach (bool result in _results)
            {
                maybe += result ? 1 : 0;
            }
        }

        return maybe;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _chase?.Dispose();
        _filter?.Dispose();
        if (_directory is not null)
        {
            Directory.Delete(_directory, recursive: true);
        }
    }

    private int CountMaybe(string[] names)
    {
        int maybe = 0;
        foreach (string name in names)
        {
            maybe += _filter!.MightExist(name) ? 1 : 0;
        }

        return maybe;
    }
}
