using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Workload;
using EventFilter.Blocked;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// What 2 MiB pages would buy a 256 MiB filter at design load: the same lines (copied from the loaded filter file)
/// in anonymous memory with 4 KiB pages and with transparent huge pages, probed by the filter's own line code with
/// the names' hashes computed beforehand, so the rows differ only in page size. The filter's private file mapping
/// cannot get huge pages on this kernel (shmem and file pages are never collapsed, only anonymous memory is), so
/// the 4 KiB rows are what the filter pays today; setup prints how much of each buffer the kernel backed with huge
/// pages (AnonHugePages). docs/decisions/huge-pages.md.
/// </summary>
public unsafe partial class HugePageBenchmarks
{
    private const long SizeBytes = 256L << 20;
    private const int Names = StreamNames.PoolSize;
    private const int Batch = 64;
    private const int MadviseHugePage = 14, MadviseNoHugePage = 15;
    private const nuint HugePageSize = 2 << 20;

    private byte* _small, _huge;
    private BloomLines _smallLines = null!, _hugeLines = null!;
    private PointerChaseBuffer _smallChase = null!, _hugeChase = null!;
    private ulong[] _misses = null!;
    private ulong[] _newNames = null!;
    private readonly bool[] _results = new bool[Batch];
    private ulong _generation;

    [GlobalSetup]
    public void Setup()
    {
        using FilterFile loaded = LoadedFilters.OpenShared(SizeBytes);
        uint lineCount = loaded.LineCount;
        int k = FilterFileOptions.DefaultK;
        _small = Copy(loaded.Path, lineCount, hugePages: false);
        _huge = Copy(loaded.Path, lineCount, hugePages: true);
        _smallLines = new BloomLines(_small, lineCount, k, changed: null);
        _hugeLines = new BloomLines(_huge, lineCount, k, changed: null);
        _smallChase = new PointerChaseBuffer(SizeBytes, hugePages: false);
        _hugeChase = new PointerChaseBuffer(SizeBytes, hugePages: true);
        StreamNames misses = StreamNames.Misses();
        _misses = misses.Utf8.Select(name => loaded.Hash(name)).ToArray();
        _newNames = new ulong[Names];
        Console.WriteLine($"// AnonHugePages of the process after setup: {AnonHugePagesKiB() / 1024} MiB (two huge-page buffers of 256 MiB each)");
    }

    [IterationSetup(Targets = [nameof(AddBatch4KiB), nameof(AddBatchHugePages)])]
    public void NextNames()
    {
        var random = new SplitMix64(0xADD5_0000 + (++_generation));
        for (int i = 0; i < _newNames.Length; i++)
        {
            _newNames[i] = random.Next();
        }
    }

    [Benchmark(Baseline = true, OperationsPerInvoke = Names)]
    public uint PointerChase4KiB() => _smallChase.Walk(Names);

    [Benchmark(OperationsPerInvoke = Names)]
    public uint PointerChaseHugePages() => _hugeChase.Walk(Names);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissOneCall4KiB() => OneCall(_smallLines);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissOneCallHugePages() => OneCall(_hugeLines);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissBatch4KiB() => InBatches(_smallLines);

    [Benchmark(OperationsPerInvoke = Names)]
    public int MissBatchHugePages() => InBatches(_hugeLines);

    [Benchmark(OperationsPerInvoke = Names)]
    public int AddBatch4KiB() => AddInBatches(_smallLines);

    [Benchmark(OperationsPerInvoke = Names)]
    public int AddBatchHugePages() => AddInBatches(_hugeLines);

    [GlobalCleanup]
    public void Cleanup()
    {
        _smallChase.Dispose();
        _hugeChase.Dispose();
        NativeMemory.AlignedFree(_small);
        NativeMemory.AlignedFree(_huge);
    }

    private int OneCall(BloomLines lines)
    {
        int maybe = 0;
        foreach (ulong hash in _misses)
        {
            maybe += lines.MightExist(hash) ? 1 : 0;
        }

        return maybe;
    }

    private int InBatches(BloomLines lines)
    {
        int maybe = 0;
        for (int start = 0; start < _misses.Length; start += Batch)
        {
            lines.MightExistBatch(_misses.AsSpan(start, Batch), _results);
            foreach (bool result in _results)
            {
                maybe += result ? 1 : 0;
            }
        }

        return maybe;
    }

    private int AddInBatches(BloomLines lines)
    {
        for (int start = 0; start < _newNames.Length; start += Batch)
        {
            lines.AddBatch(_newNames.AsSpan(start, Batch));
        }

        return _newNames.Length;
    }

    /// <summary>The filter's lines (after its header line) in anonymous memory, 2 MiB aligned, with the page size asked for.</summary>
    private static byte* Copy(string path, uint lineCount, bool hugePages)
    {
        nuint bytes = (nuint)lineCount * FilterGeometry.LineSize;
        byte* buffer = (byte*)NativeMemory.AlignedAlloc(bytes, HugePageSize);
        _ = Madvise(buffer, bytes, hugePages ? MadviseHugePage : MadviseNoHugePage);
        using var file = File.OpenHandle(path);
        long read = 0;
        while (read < (long)bytes)
        {
            int chunk = (int)Math.Min(1 << 30, (long)bytes - read);
            read += RandomAccess.Read(file, new Span<byte>(buffer + read, chunk), FilterGeometry.LineSize + read);
        }

        return buffer;
    }

    private static long AnonHugePagesKiB() =>
        File.ReadLines("/proc/self/smaps").Where(line => line.StartsWith("AnonHugePages:", StringComparison.Ordinal))
            .Sum(line => long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], System.Globalization.CultureInfo.InvariantCulture));

    [LibraryImport("libc", EntryPoint = "madvise")]
    private static partial int Madvise(void* address, nuint length, int advice);
}
