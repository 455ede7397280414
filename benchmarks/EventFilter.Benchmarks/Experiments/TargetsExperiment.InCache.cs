using System.Diagnostics;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>The in-cache cases of <c>targets</c>: lookups over a 256 KiB filter, and adds by one writer or two at once.</summary>
public static partial class TargetsExperiment
{
    /// <summary>
    /// The in-cache lookups, UTF-8 and string, each the fastest of <see cref="Placements"/> placements: a fresh filter
    /// (new pages) and fresh copies of its names each time. Filter and names fill a third of the L2, and in about one
    /// process in eight their pages fell so that the UTF-8 lookup took 20 ns instead of 12 for all its rounds, the
    /// chase in the same process unmoved; a placement is what the code does not choose, so the fastest is its cost.
    /// </summary>
    /// <remarks>
    /// The string form asks half the names, twice as often: 4,096 strings (about 570 KB of objects) beside the filter
    /// filled most of this machine's 1 MiB L2, and in one process of eight the string lookup's fastest round took
    /// 12.4 ns where the others took 16-18 (where the pages fell); the UTF-8 names (245 KB) did not.
    /// </remarks>
    private static (Timing Utf8, Timing String) LookupsInCache(StreamNames hits)
    {
        // All held at once: pages freed by one placement would be the next one's, the kernel reusing the freed first.
        FilterFile[] filters = Enumerable.Range(0, Placements).Select(placement => InCacheFilterHolding(hits, placement)).ToArray();
        byte[][][] utf8 = filters.Select(_ => hits.Utf8[..CacheNames].Select(name => name.ToArray()).ToArray()).ToArray();
        string[][] strings = filters.Select(_ => hits.Strings[..StringCacheNames].Select(name => new string(name)).ToArray()).ToArray();
        Timing? bestUtf8 = null, bestString = null;
        for (int p = 0; p < Placements; p++)
        {
            FilterFile cached = filters[p];
            byte[][] utf8Names = utf8[p];
            string[] stringNames = strings[p];
            // The string form first: timed after the UTF-8 form in the same process and placement, its lookups took
            // 15.8-18.6 ns against 11.7 before it (and 10.9-11.7 in a loop of their own), which set each process's
            // level; the UTF-8 form took 9.8-10.6 ns either way. Why was not found (no hardware counters).
            Timing byString = Time(() => Repeat(CacheRepeats * 2, () => NameLoops.CountMaybe(cached, stringNames))) / (StringCacheNames * CacheRepeats * 2);
            Timing byUtf8 = Time(() => Repeat(CacheRepeats, () => NameLoops.CountMaybe(cached, utf8Names))) / (CacheNames * CacheRepeats);
            bestUtf8 = bestUtf8 is { } u && u.Min <= byUtf8.Min ? u : byUtf8;
            bestString = bestString is { } b && b.Min <= byString.Min ? b : byString;
        }

        foreach (FilterFile filter in filters)
        {
            filter.Dispose();
        }

        return (bestUtf8!.Value, bestString!.Value);
    }

    /// <summary>The in-cache filter at design load (one name per line) whose names include the first cached hits.</summary>
    private static FilterFile InCacheFilterHolding(StreamNames hits, int placement)
    {
        string path = BenchmarkDirectory.Scratch($"targets-in-cache-{placement}.filter");
        FilterFile filter = FilterFile.Create(path, LoadedFilters.Options(InCache));
        filter.AddBatch(hits.Packed.AsSpan(0, (int)filter.LineCount * StreamNames.NameLength), hits.Lengths.AsSpan(0, (int)filter.LineCount));
        return filter;
    }

    /// <summary>
    /// New names into a fresh in-cache filter, by one thread or by two at once, each with its own names: nanoseconds per
    /// add per thread, the fastest round. With two writers a round counts only if they added at the same time for
    /// nearly all of it (<see cref="Contended"/>): a round is a quarter of a millisecond, and on two vCPUs with other
    /// work one writer was often done before the other began, which timed two single writers, not contention.
    /// </summary>
    /// <remarks>
    /// Right after each writer's timed adds, the same threads run <see cref="Baseline.SharedLineWriters"/> as many
    /// steps, started together again: what the machine itself charges writers on those two cores for sharing lines,
    /// in the same round (<c>Machine</c>); <c>Net</c> is each counted round's add less its machine loop, its figure
    /// (<c>Min</c>) the lower quartile of those rounds (<see cref="LowerQuartile"/>).
    /// </remarks>
    private static (Timing Filter, Timing Machine, Timing Net) AddInCache(int writers, WriterMode mode = WriterMode.StripeLock)
    {
        using var modes = new Peers.LineWriterModes(InCache);
        using var machine = new Baseline.SharedLineWriters(InCache);
        var machineTimes = new List<double>();
        long[] machineBegan = new long[writers], machineEnded = new long[writers];
        const int PerWriter = 8_192;
        var pools = Enumerable.Range(0, writers).Select(w => new StreamNames($"wrtr{w:D2}", PerWriter)).ToArray();
        var touch = new StreamNames("touchs", 16_384);
        int generation = 0;
        var times = new List<double>();
        long[] began = new long[writers], ended = new long[writers];
        var warm = Stopwatch.StartNew();
        // Tries are counted from the end of the warm-up: on a quiet machine 600 rounds took less than the warm-up, and
        // a cap counted from the first round ended the case with no round timed.
        for (int round = 0, tries = 0; times.Count < InCacheAddRounds && tries < InCacheAddRounds * MaxTriesPerRound; round++)
        {
            tries += warm.Elapsed >= WarmUp ? 1 : 0;
            string path = BenchmarkDirectory.Scratch($"targets-add-{writers}-{round % 2}.filter");
            using (FilterFile filter = FilterFile.Create(path, LoadedFilters.Options(InCache)))
            {
                modes.Clear();
                touch.SetGeneration(++generation);
                foreach (StreamNames pool in pools)
                {
                    pool.SetGeneration(generation);
                }

                int arrived = 0, arrivedAgain = 0;
                void Write(int w)
                {
                    // Each writer first writes every page itself, untimed: the lines are then in its own cache, as
                    // "in cache" means, and no copy-on-write fault is timed.
                    AddAll(filter, modes, mode, touch.Utf8);
                    machine.Touch();

                    // Spin, not block, until every writer is here: all of them are then on a core when they start,
                    // where a blocking barrier's wake-up took longer than the round.
                    SpinUntilAll(ref arrived, writers);
                    began[w] = Stopwatch.GetTimestamp();
                    AddAll(filter, modes, mode, pools[w].Utf8);
                    ended[w] = Stopwatch.GetTimestamp();

                    SpinUntilAll(ref arrivedAgain, writers);
                    machineBegan[w] = Stopwatch.GetTimestamp();
                    GC.KeepAlive(machine.Write(w, generation, PerWriter));
                    machineEnded[w] = Stopwatch.GetTimestamp();
                }

                if (writers == 1)
                {
                    Write(0); // on this thread, which wrote the names too: one writer is the plain case
                }
                else
                {
                    var threads = Enumerable.Range(0, writers).Select(w => new Thread(() => Write(w))).ToArray();
                    foreach (Thread thread in threads)
                    {
                        thread.Start();
                    }

                    // Join blocks without spinning: a spinning waiter would take a writer's core.
                    foreach (Thread thread in threads)
                    {
                        thread.Join();
                    }
                }
            }

            if (warm.Elapsed >= WarmUp && (writers == 1 || (Contended(began, ended) && Contended(machineBegan, machineEnded))))
            {
                times.Add(Enumerable.Range(0, writers).Average(w => Stopwatch.GetElapsedTime(began[w], ended[w]).TotalNanoseconds) / PerWriter);
                machineTimes.Add(Enumerable.Range(0, writers).Average(w => Stopwatch.GetElapsedTime(machineBegan[w], machineEnded[w]).TotalNanoseconds) / PerWriter);
            }

            BenchmarkDirectory.DeleteQuietly(path);
        }

        return times.Count > 0 ? (Timing.Of(times), Timing.Of(machineTimes), LowerQuartile(times.Zip(machineTimes, (f, m) => f - m).ToArray())) : throw new InvalidOperationException($"No round of {writers} writers added at the same time in {InCacheAddRounds * MaxTriesPerRound} tries: the machine is too busy for this case.");
    }

    // The rounds' lower quartile as the figure (in Min), the median and slowest beside it: a difference of two
    // quarter-millisecond rounds, whose fastest moved 11% between two runs (a round whose machine loop was slowed)
    // and whose median 82% (a run whose first minute was disturbed).
    private static Timing LowerQuartile(IList<double> rounds)
    {
        double[] sorted = rounds.Order().ToArray();
        return new Timing(sorted[sorted.Length / 2], sorted[sorted.Length / 4], sorted[^1]);
    }

    private static void SpinUntilAll(ref int arrived, int writers)
    {
        Interlocked.Increment(ref arrived);
        while (Volatile.Read(ref arrived) < writers)
        {
            Thread.SpinWait(16);
        }
    }

    /// <summary>Rounds tried per round counted, at most, for a case whose rounds may not count (<see cref="Contended"/>).</summary>
    private const int MaxTriesPerRound = 20;

    /// <summary>True when every writer's timed span overlapped all the others' for at least 90% of its length.</summary>
    private static bool Contended(long[] began, long[] ended)
    {
        long together = ended.Min() - began.Max();
        return Enumerable.Range(0, began.Length).All(w => together >= 0.9 * (ended[w] - began[w]));
    }
}
