using System.Text;
using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// Catch-up as a restarting server runs it: <see cref="StreamExistenceFilter.CatchUpAsync"/> from position 0 over an
/// in-memory log of 4M never-seen 60-byte names into a fresh 256 MiB filter, batch path, checkpoints included
/// (every 1M records by default: msync + fsync + checkpoint rename; or only at the end). Reported per name; the
/// issue's target is 5M names/s (200 ns). A fresh file also pays one write fault per page on first touch.
/// </summary>
[MemoryDiagnoser]
public class CatchUpBenchmarks
{
    private const int Names = 4 << 20;
    private PackedNameLog _log = null!;
    private string _directory = null!;
    private StreamExistenceFilter _filter = null!;

    /// <summary>Records between catch-up checkpoints: the default (1M), or one checkpoint at the end only.</summary>
    [Params(1_000_000, int.MaxValue)]
    public long CheckpointRecords { get; set; }

    [GlobalSetup]
    public void CreateLog() => _log = new PackedNameLog(
        Enumerable.Range(0, Names).Select(i => Encoding.UTF8.GetBytes($"catchup-{i:D10}-7f3c4e8a9c6f5b3d2f1c9a7e0001a2b3-stream")).ToArray());

    [IterationSetup]
    public void OpenEmptyFilter()
    {
        _directory = BenchmarkDirectory.Scratch($"catch-up-{Guid.NewGuid():N}");
        _filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _directory, SizeBytes = 256L << 20, CatchUpCheckpointRecords = CheckpointRecords }, _log);
        _filter.Open();
    }

    [Benchmark(OperationsPerInvoke = Names)]
    public Task CatchUpFromZero() => _filter.CatchUpAsync(CancellationToken.None);

    [IterationCleanup]
    public void DeleteFilter()
    {
        _filter.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
