using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// Hashing alone, over the same pool of 60-byte names the other benchmarks stream through: EventFilter's one XXH3-64
/// pass (string form: UTF-8 encoding onto the stack, then the hash), against the classic peer's four 32-bit passes.
/// Subtract these from the lookup figures to see what the memory access costs.
/// </summary>
public class HashBenchmarks
{
    private const int Names = StreamNames.PoolSize;

    private FilterFile _filter = null!;
    private StreamNames _names = null!;

    [GlobalSetup]
    public void Setup()
    {
        _names = StreamNames.Hits();
        _filter = FilterFile.Create(BenchmarkDirectory.Scratch("hash.filter"), LoadedFilters.Options(1 << 20));
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _filter.Dispose();
        BenchmarkDirectory.DeleteQuietly(_filter.Path);
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Names)]
    public ulong HashUtf8()
    {
        ulong mix = 0;
        foreach (byte[] name in _names.Utf8)
        {
            mix ^= _filter.Hash(name);
        }

        return mix;
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public ulong HashString()
    {
        ulong mix = 0;
        foreach (string name in _names.Strings)
        {
            mix ^= _filter.Hash(name);
        }

        return mix;
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public ulong ClassicHashUtf8()
    {
        ulong mix = 0;
        foreach (byte[] name in _names.Utf8)
        {
            (ulong first, ulong second) = ClassicHashes.Compute(name);
            mix ^= first ^ second;
        }

        return mix;
    }
}
