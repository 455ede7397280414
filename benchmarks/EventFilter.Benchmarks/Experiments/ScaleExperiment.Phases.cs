using System.Diagnostics;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// The phases of <c>scale</c> after the catch-up rounds, on one filter with the default options (so its catch-up and
/// the resize's checkpoint every 16M records, as a user's do): its catch-up and
/// final checkpoint, lookups (hit and miss) on one thread and on every core, reopen to ready and the verify rates,
/// then an online resize to twice the size with lookups of added names running throughout, each "no" a false negative.
/// </summary>
public static partial class ScaleExperiment
{
    /// <summary>Names each lookup thread asks, per kind (hit, miss).</summary>
    private const int LookupsPerThread = 4 << 20;

    // hits: the log's first names, held in memory, so that lookups do not pay for writing them.
    private static JsonObject Phases(long size, PackedNameLog log, PackedNameLog hits, PackedNameLog absent, int cores, ref long falseNegatives)
    {
        string directory = BenchmarkDirectory.Scratch($"scale-phases-{Guid.NewGuid():N}");
        var options = new StreamExistenceFilterOptions { DataDirectory = directory, SizeBytes = size };
        var phases = new JsonObject();
        try
        {
            using (var filter = new StreamExistenceFilter(options, log))
            {
                filter.Open();
                long started = Stopwatch.GetTimestamp();
                Task catchUp = filter.CatchUpAsync(CancellationToken.None);
                filter.WhenReady.GetAwaiter().GetResult();
                double ready = Stopwatch.GetElapsedTime(started).TotalSeconds;
                catchUp.GetAwaiter().GetResult();
                phases["catch_up_ns_per_name"] = Math.Round(ready * 1e9 / log.EndPosition, 1);
                phases["final_checkpoint_s"] = Math.Round(Stopwatch.GetElapsedTime(started).TotalSeconds - ready, 2);
                foreach (int threads in cores > 1 ? new[] { 1, cores } : [1])
                {
                    (double hitNs, long missing) = LookupNs(filter, hits, threads);
                    falseNegatives += missing;
                    phases[$"lookup_hit_{threads}t_ns"] = Math.Round(hitNs, 1);
                    phases[$"lookup_miss_{threads}t_ns"] = Math.Round(LookupNs(filter, absent, threads).Ns, 1);
                }
            }

            long reopened = Stopwatch.GetTimestamp();
            using (var filter = new StreamExistenceFilter(options, log))
            {
                filter.Open();
                Task catchUp = filter.CatchUpAsync(CancellationToken.None);
                filter.WhenReady.GetAwaiter().GetResult();
                phases["reopen_to_ready_s"] = Math.Round(Stopwatch.GetElapsedTime(reopened).TotalSeconds, 3);
                catchUp.GetAwaiter().GetResult();
            }

            phases["verify"] = VerifyRates(options.FilterPath, cores);
            phases["resize"] = Resize(options, log, hits, ref falseNegatives);
            return phases;
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    /// <summary>
    /// Ns per lookup per thread: <paramref name="threads"/> threads each ask <see cref="LookupsPerThread"/> names of
    /// <paramref name="names"/> (their own slice, one name at a time through the public API). Returns the names
    /// answered "definitely not", which for a log's own names are false negatives.
    /// </summary>
    private static (double Ns, long No) LookupNs(StreamExistenceFilter filter, PackedNameLog names, int threads)
    {
        long no = 0;
        long started = Stopwatch.GetTimestamp();
        Parallel.For(0, threads, new ParallelOptions { MaxDegreeOfParallelism = threads }, thread =>
        {
            Interlocked.Add(ref no, AskSlice(filter, names, thread * (long)LookupsPerThread, LookupsPerThread, stop: null).No);
        });
        double ns = Stopwatch.GetElapsedTime(started).TotalNanoseconds;
        return (ns / LookupsPerThread, no);
    }

    /// <summary>Asks names [first, first + count) of the log, wrapping round; stops early when <paramref name="stop"/> is done. Returns the names asked and the "no" answers.</summary>
    private static (long Asked, long No) AskSlice(StreamExistenceFilter filter, PackedNameLog names, long first, long count, Task? stop)
    {
        long no = 0, asked = 0;
        for (; asked < count && stop?.IsCompleted != true; asked++)
        {
            long position = (first + asked) % names.EndPosition;
            PackedNameLog.Segment segment = names.Segments[(int)(position >> 22)]; // held: hits and absent names are
            int i = (int)(position & ((1 << 22) - 1));
            no += filter.MightExist(segment.Names.AsSpan(segment.Offsets[i], segment.Offsets[i + 1] - segment.Offsets[i])) ? 0 : 1;
        }

        return (asked, no);
    }

    /// <summary>
    /// Reopens at twice the size: the old file serves at once while the new one is caught up beside it and swapped in.
    /// One thread asks added names the whole time; every "no" is a false negative. Then every name is asked of the new file.
    /// </summary>
    private static JsonObject Resize(StreamExistenceFilterOptions old, PackedNameLog log, PackedNameLog hits, ref long falseNegatives)
    {
        var options = new StreamExistenceFilterOptions { DataDirectory = old.DataDirectory, SizeBytes = old.SizeBytes * 2 };
        using var filter = new StreamExistenceFilter(options, log);
        long started = Stopwatch.GetTimestamp();
        filter.Open();
        Task resize = filter.CatchUpAsync(CancellationToken.None);
        filter.WhenReady.GetAwaiter().GetResult();
        long asked = 0, no = 0;
        Task lookups = Task.Factory.StartNew(() =>
        {
            while (!resize.IsCompleted)
            {
                (long slice, long sliceNo) = AskSlice(filter, hits, asked, 1 << 16, resize);
                (asked, no) = (asked + slice, no + sliceNo);
            }
        }, TaskCreationOptions.LongRunning);
        resize.GetAwaiter().GetResult();
        double seconds = Stopwatch.GetElapsedTime(started).TotalSeconds;
        lookups.GetAwaiter().GetResult();
        long missing = FalseNegatives(filter.ServingFile!, log);
        falseNegatives += no + missing;
        return new JsonObject
        {
            ["to_size_mib"] = options.SizeBytes / MiB, ["seconds"] = Math.Round(seconds, 2), ["ns_per_name"] = Math.Round(seconds * 1e9 / log.EndPosition, 1),
            ["lookups_during"] = asked, ["false_negatives_during"] = no, ["false_negatives_after"] = missing,
            ["swapped"] = filter.ServingSizeBytes == options.SizeBytes,
        };
    }
}
