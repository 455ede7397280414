using System.Runtime.InteropServices;
using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// <c>FilterFile.Open</c> of a 256 MiB file holding 32M names (about 8 per line, so nearly every line is checksummed):
/// map, read the header and verify every line. Warm: the file is in the page cache, so this is the verifier's speed.
/// Cold: the file's pages are dropped from the page cache before each open (posix_fadvise, this file only), so the
/// disk is read too. GB/s = 0.268 GB / mean time.
/// </summary>
public partial class OpenVerifyBenchmarks
{
    private const long SizeBytes = 256L << 20;
    private const long NamesInFile = 32L << 20;
    private const int DropFromPageCache = 4; // POSIX_FADV_DONTNEED

    private string _path = null!;

    [GlobalSetup]
    public void Setup() => _path = LoadedFilters.EnsureBuilt(SizeBytes, NamesInFile);

    /// <summary>Does nothing: it makes the warm open run one invocation per iteration like the cold one, so both share a summary group.</summary>
    [IterationSetup(Target = nameof(OpenWarm))]
    public void KeepFileCached()
    {
    }

    [Benchmark(Baseline = true)]
    public long OpenWarm() => OpenAndVerify();

    [IterationSetup(Target = nameof(OpenCold))]
    public void EvictFile()
    {
        using var file = new FileStream(_path, FileMode.Open, FileAccess.Read, FileShare.ReadWrite);
        _ = Fadvise((int)file.SafeFileHandle.DangerousGetHandle(), 0, 0, DropFromPageCache);
    }

    [Benchmark]
    public long OpenCold() => OpenAndVerify();

    private long OpenAndVerify()
    {
        using FilterFile filter = FilterFile.Open(_path, LoadedFilters.Options(SizeBytes));
        return filter.Verification.LinesChecked;
    }

    [LibraryImport("libc", EntryPoint = "posix_fadvise")]
    private static partial int Fadvise(int fd, long offset, long length, int advice);
}
