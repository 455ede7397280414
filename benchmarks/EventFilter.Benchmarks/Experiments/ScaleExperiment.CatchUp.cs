using System.Diagnostics;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>One timed catch-up of <c>scale</c>, the false-negative count after it, and the same-run chase.</summary>
public static partial class ScaleExperiment
{
    /// <summary>
    /// Opens a fresh filter, then times <c>CatchUpAsync</c> from 0 to ready (the first touch of every page included).
    /// Only a path with the default options checkpoints before the end; the others measure the adds, not the disk.
    /// Then asks every name. Returns the checkpoints taken before ready too: how many, their time and bytes.
    /// </summary>
    private static (double NsPerName, long FalseNegatives, JsonObject Checkpoints) CatchUpOnce(long size, PackedNameLog log, CatchUpPath path)
    {
        string directory = BenchmarkDirectory.Scratch($"scale-{Guid.NewGuid():N}");
        StreamExistenceFilterOptions options = path.Defaults
            ? new StreamExistenceFilterOptions { DataDirectory = directory, SizeBytes = size }
            : new StreamExistenceFilterOptions
            {
                DataDirectory = directory, SizeBytes = size, CatchUpCheckpointRecords = long.MaxValue,
                CatchUpThreads = path.Threads, CatchUpAdds = path.Adds, CatchUpReadAhead = path.ReadAhead,
            };
        var checkpoints = new CheckpointTally();
        try
        {
            using var filter = new StreamExistenceFilter(options, log, checkpoints);
            filter.Open();
            long started = Stopwatch.GetTimestamp();
            Task catchUp = filter.CatchUpAsync(CancellationToken.None);
            filter.WhenReady.GetAwaiter().GetResult();
            double ns = Stopwatch.GetElapsedTime(started).TotalNanoseconds;
            JsonObject taken = checkpoints.Snapshot();
            catchUp.GetAwaiter().GetResult();
            return (ns / log.EndPosition, FalseNegatives(filter.ServingFile!, log), taken);
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>The checkpoints a catch-up takes: how many, their wall time and the bytes they wrote.</summary>
    private sealed class CheckpointTally : FilterObserver
    {
        private long _count, _bytes, _ticks;

        public override void CheckpointWritten(string path, long position, FlushResult flush)
        {
            Interlocked.Increment(ref _count);
            Interlocked.Add(ref _bytes, flush.BytesFlushed);
            Interlocked.Add(ref _ticks, flush.Duration.Ticks);
        }

        public JsonObject Snapshot() => new()
        {
            ["count"] = Interlocked.Read(ref _count),
            ["seconds"] = Math.Round(TimeSpan.FromTicks(Interlocked.Read(ref _ticks)).TotalSeconds, 3),
            ["mib"] = Math.Round(Interlocked.Read(ref _bytes) / (double)MiB, 1),
        };
    }

    /// <summary>
    /// Nanoseconds per name to read the whole log into a batch of the catch-up's size and add nothing: the host's share
    /// of a catch-up, which one thread pays whatever the filter does (it bounds the speed-up on more cores).
    /// </summary>
    private static double ReadAloneNs(long size, PackedNameLog log)
    {
        StreamNameBatch batch = Blocked.RegionAdder.BatchFor((uint)(size / 64) - 1);
        long started = Stopwatch.GetTimestamp();
        for (long position = 0; position < log.EndPosition; position = batch.NextPosition)
        {
            batch.Clear();
            log.ReadAsync(position, batch, CancellationToken.None).GetAwaiter().GetResult();
        }

        return Stopwatch.GetElapsedTime(started).TotalNanoseconds / log.EndPosition;
    }

    /// <summary>
    /// Nanoseconds per name (of <paramref name="names"/>) to make every page's private copy of a fresh file of
    /// <paramref name="size"/> on <paramref name="threads"/> threads, as a catch-up does before its first batch.
    /// </summary>
    private static double PopulateAloneNs(long size, long names, int threads)
    {
        string path = BenchmarkDirectory.Scratch($"scale-populate-{Guid.NewGuid():N}.filter");
        try
        {
            using FilterFile file = FilterFile.Create(path, new FilterFileOptions { SizeBytes = size });
            long started = Stopwatch.GetTimestamp();
            file.ExpectAdds(long.MaxValue, threads);
            return Stopwatch.GetElapsedTime(started).TotalNanoseconds / names;
        }
        finally
        {
            BenchmarkDirectory.DeleteQuietly(path);
        }
    }

    /// <summary>Asks every name of the log in batches, on every core: each "definitely not" is a false negative.</summary>
    private static long FalseNegatives(FilterFile file, PackedNameLog log)
    {
        long missing = 0;
        // One segment per core at a time: a generated log writes each segment (188 MB) when asked, and the pool's
        // hill climbing ran 20 at once at 4 GiB, 4 GB of segments beside the filter and the chase.
        Parallel.For(0, log.SegmentCount, new ParallelOptions { MaxDegreeOfParallelism = Environment.ProcessorCount }, index =>
        {
            PackedNameLog.Segment segment = log.SegmentAt(index);
            const int Chunk = 1 << 16;
            int[] lengths = new int[Chunk];
            bool[] results = new bool[Chunk];
            int count = segment.Offsets.Length - 1;
            for (int first = 0; first < count; first += Chunk)
            {
                int n = Math.Min(Chunk, count - first);
                for (int i = 0; i < n; i++)
                {
                    lengths[i] = segment.Offsets[first + i + 1] - segment.Offsets[first + i];
                }

                int from = segment.Offsets[first];
                file.MightExistBatch(segment.Names.AsSpan(from, segment.Offsets[first + n] - from), lengths.AsSpan(0, n), results);
                Interlocked.Add(ref missing, results.AsSpan(0, n).Count(false));
            }
        });
        return missing;
    }

    /// <summary>Nanoseconds per dependent step: the fastest of 3 walks of 2^20 steps after one untimed.</summary>
    private static double ChaseNs(PointerChaseBuffer chase)
    {
        const int Steps = 1 << 20;
        double best = double.MaxValue;
        for (int walk = 0; walk < 4; walk++)
        {
            long started = Stopwatch.GetTimestamp();
            GC.KeepAlive(chase.Walk(Steps));
            double ns = Stopwatch.GetElapsedTime(started).TotalNanoseconds / Steps;
            best = walk == 0 ? best : Math.Min(best, ns);
        }

        return best;
    }
}
