using System.Text;
using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// Catch-up as a restarting server runs it: <see cref="StreamExistenceFilter.CatchUpAsync"/> from position 0 over an
/// in-memory log of 4M never-seen 60-byte names into a fresh 256 MiB filter, batch path, checkpoints included
/// (every 1M records, or only the final one; the default is every 16M, so the final one here). Reported per name,
/// to the end of <c>CatchUpAsync</c> and to ready (the filter answers from then on; the final checkpoint, which
/// follows, is waited for untimed). The goal is 10M names/s (100 ns). A fresh file's pages are made private first.
/// </summary>
[MemoryDiagnoser]
public class CatchUpBenchmarks
{
    private const int Names = 4 << 20;
    private PackedNameLog _log = null!;
    private string _directory = null!;
    private StreamExistenceFilter _filter = null!;
    private Task _catchUp = Task.CompletedTask;

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

    [Benchmark(OperationsPerInvoke = Names)]
    public Task CatchUpToReady()
    {
        _catchUp = _filter.CatchUpAsync(CancellationToken.None);
        return _filter.WhenReady;
    }

    [IterationCleanup]
    public void DeleteFilter()
    {
        // The final checkpoint of CatchUpToReady, outside the timing.
        _catchUp.GetAwaiter().GetResult();
        _filter.Dispose();
        Directory.Delete(_directory, recursive: true);
    }
}
