using System.Diagnostics;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>scale --adds-only [--sizes MIB,...] [--rounds R] [--threads N]</c>: the region path's adds alone, on one thread and on every
/// core, with the log read into batches beforehand (32M names per size, in batches of the catch-up's size, into a
/// fresh file whose pages are made first, and into lines in anonymous memory with and without changed-line marks):
/// what the adds scale to when no read shares the cores. Beside it, the
/// machine's own loops (<see cref="MachineBaseline"/>) in the same round. To find what keeps a catch-up from scaling.
/// </summary>
public static partial class ScaleExperiment
{
    // threads: 0 for one thread and every core, with the machine's loops; else only that many (to profile).
    private static JsonArray AddsOnly(long[] sizes, int rounds, int cores, int threads)
    {
        var rows = new JsonArray();
        foreach (long size in sizes)
        {
            const long Names = 32 << 20;
            PackedNameLog log = PackedNameLog.Numbered(Names, "adds");
            var batches = new List<StreamNameBatch>();
            for (long position = 0; position < log.EndPosition;)
            {
                StreamNameBatch batch = Blocked.RegionAdder.BatchFor((uint)(size / 64) - 1);
                log.ReadAsync(position, batch, CancellationToken.None).GetAwaiter().GetResult();
                batches.Add(batch);
                position = batch.NextPosition;
            }

            using var chase = new Baseline.PointerChaseBuffer(size, hugePages: false);
            for (int round = 1; round <= rounds; round++)
            {
                var row = new JsonObject { ["size_mib"] = size / MiB, ["round"] = round };
                foreach (int n in threads > 0 ? [threads] : round % 2 == 1 ? new[] { 1, cores } : [cores, 1])
                {
                    row[$"adds_{n}t_ns"] = Math.Round(AddsNs(size, batches, n), 2);
                    row[$"anonymous_adds_{n}t_ns"] = Math.Round(AnonymousAddsNs(size, batches, n, marks: true), 2);
                    row[$"anonymous_unmarked_adds_{n}t_ns"] = Math.Round(AnonymousAddsNs(size, batches, n, marks: false), 2);
                }

                if (threads > 0)
                {
                    Console.WriteLine(row.ToJsonString());
                    continue;
                }

                foreach (string kind in new[] { "adds", "anonymous_adds", "anonymous_unmarked_adds" })
                {
                    row[$"{kind}_speed_up"] = Math.Round(row[$"{kind}_1t_ns"]!.GetValue<double>() / row[$"{kind}_{cores}t_ns"]!.GetValue<double>(), 2);
                }

                row["machine"] = MachineBaseline(size, chase, cores);
                row["load_average"] = LoadAverage();
                Console.WriteLine(row.ToJsonString());
                rows.Add(row);
            }
        }

        return rows;
    }

    /// <summary>
    /// As <see cref="AddsNs"/>, into lines in anonymous memory (every page written first) rather than the file's
    /// private mapping, with or without the changed-line marks: which of the two the adds' scaling depends on.
    /// </summary>
    private static unsafe double AnonymousAddsNs(long size, List<StreamNameBatch> batches, int threads, bool marks)
    {
        uint lineCount = (uint)(size / 64) - 1; // as the file's geometry: one line for the header
        byte* memory = (byte*)System.Runtime.InteropServices.NativeMemory.AlignedAlloc((nuint)lineCount * 64, 4096);
        try
        {
            System.Runtime.InteropServices.NativeMemory.Clear(memory, (nuint)lineCount * 64);
            var lines = new Blocked.BloomLines(memory, lineCount, k: 6, marks ? new Blocked.AtomicBitmap(lineCount) : null);
            using var adder = new Blocked.RegionAdder(threads);
            long names = 0;
            long started = Stopwatch.GetTimestamp();
            foreach (StreamNameBatch batch in batches)
            {
                adder.Add(lines, 0x5EED, batch);
                names += batch.Count;
            }

            return Stopwatch.GetElapsedTime(started).TotalNanoseconds / names;
        }
        finally
        {
            System.Runtime.InteropServices.NativeMemory.AlignedFree(memory);
        }
    }

    private static double AddsNs(long size, List<StreamNameBatch> batches, int threads)
    {
        string path = BenchmarkDirectory.Scratch($"scale-adds-{Guid.NewGuid():N}.filter");
        try
        {
            using FilterFile file = FilterFile.Create(path, new FilterFileOptions { SizeBytes = size });
            file.ExpectAdds(long.MaxValue, threads);
            using var adder = new Blocked.RegionAdder(threads);
            long names = 0;
            long started = Stopwatch.GetTimestamp();
            foreach (StreamNameBatch batch in batches)
            {
                file.AddBatch(batch, adder);
                names += batch.Count;
            }

            return Stopwatch.GetElapsedTime(started).TotalNanoseconds / names;
        }
        finally
        {
            BenchmarkDirectory.DeleteQuietly(path);
        }
    }
}
