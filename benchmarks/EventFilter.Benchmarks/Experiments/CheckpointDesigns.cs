using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>A filter with checkpoints, as the <c>flush</c> experiment drives it: ours or the classic peer.</summary>
public interface ICheckpointDesign : IDisposable
{
    string Name { get; }

    bool Add(byte[] utf8Name);

    /// <summary>Makes every completed add durable and records <paramref name="position"/>; returns what it reported.</summary>
    FlushResult Checkpoint(long position);

    /// <summary>Waits for background work a checkpoint started (ours: a fold), so its bytes are counted.</summary>
    void WaitIdle();

    /// <summary>Bytes the design itself reported for background work (ours: folds).</summary>
    long ReportedBackgroundBytes { get; }

    /// <summary>
    /// Whether the thread that checkpoints yields to the adds (the batch scheduling class), as the design's host runs
    /// it: ours as the hosting package does (unless <c>flush --checkpointer normal</c>), the classic design as
    /// EventStoreDB does, on a normal thread.
    /// </summary>
    bool BatchCheckpointer { get; }
}

/// <summary>EventFilter: private mapping, changed-line journal, background folds.</summary>
public sealed class OursDesign : ICheckpointDesign
{
    /// <summary>False with <c>flush --checkpointer normal</c>: our checkpoints on a normal thread, to compare.</summary>
    public static bool BatchCheckpoints { get; set; } = true;

    public bool BatchCheckpointer => BatchCheckpoints;

    private readonly FilterFile _file;
    private long _foldBytes;

    public OursDesign(long sizeBytes)
    {
        _file = LoadedFilters.OpenCopy(sizeBytes, "checkpoint-ours.filter");
        _file.Folded = fold =>
        {
            Interlocked.Add(ref _foldBytes, fold.BytesFlushed);
            long end = System.Diagnostics.Stopwatch.GetTimestamp();
            Folds?.Add(end - (long)(fold.Duration.TotalSeconds * System.Diagnostics.Stopwatch.Frequency), end);
        };
    }

    /// <summary>Where each fold's start and end go, for the stall probe (<see cref="PacedRun"/>).</summary>
    internal Intervals? Folds { get; set; }

    public string Name => "ours";

    public long ReportedBackgroundBytes => Interlocked.Read(ref _foldBytes);

    public bool Add(byte[] utf8Name) => _file.Add(utf8Name);

    public FlushResult Checkpoint(long position) => _file.Flush(position);

    public void WaitIdle() => _file.WaitForBackgroundFold();

    /// <summary>Leaves the file with no journal: the state after warm-up.</summary>
    public void Fold() => _file.FoldJournal();

    public void Dispose()
    {
        string path = _file.Path;
        _file.Dispose();
        foreach ((ulong _, string journal) in EventFilter.Journal.JournalFiles.List(path))
        {
            File.Delete(journal);
        }

        File.Delete(EventFilter.CheckpointFile.PathFor(path));
        BenchmarkDirectory.DeleteQuietly(path);
    }
}

/// <summary>The classic design: k=6 bits anywhere, whole file in anonymous memory, dirty pages written by pwrite.</summary>
public sealed class ClassicDesign(long sizeBytes, StreamNames hits) : ICheckpointDesign
{
    private readonly ClassicBloomFilter _filter = LoadedFilters.CreateClassic(sizeBytes, hits, "checkpoint-classic.filter");

    public string Name => "classic";

    public bool BatchCheckpointer => false;

    public long ReportedBackgroundBytes => 0;

    public bool Add(byte[] utf8Name) => _filter.Add(utf8Name);

    public FlushResult Checkpoint(long position) => _filter.Flush();

    public void WaitIdle()
    {
    }

    public void Dispose()
    {
        string path = _filter.Path;
        _filter.Dispose();
        BenchmarkDirectory.DeleteQuietly(path);
    }
}
