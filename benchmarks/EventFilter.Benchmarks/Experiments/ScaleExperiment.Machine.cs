using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Baseline;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// The machine's own speed-up from one thread to every core for the catch-up's kind of access, taken in the same
/// round as the catch-ups (<see cref="LineUpdateBuffer"/>): random line updates region by region and at random over
/// a buffer of the filter's size, and the dependent chase walked by every thread at once. The catch-up's speed-up is
/// judged beside it: a second thread cannot give the catch-up more than it gives these loops.
/// </summary>
public static partial class ScaleExperiment
{
    /// <summary>
    /// <c>scale --machine-only [--sizes MIB,...] [--rounds R] [--huge-pages]</c>: the machine's loops alone, per size,
    /// without a filter (seconds per size): where its speed-up from one thread to every core holds and where it ends.
    /// </summary>
    private static JsonArray MachineOnly(long[] sizes, int rounds, int cores, bool hugePages)
    {
        var rows = new JsonArray();
        foreach (long size in sizes)
        {
            using var chase = new PointerChaseBuffer(size, hugePages);
            for (int round = 1; round <= rounds; round++)
            {
                JsonObject row = MachineBaseline(size, chase, cores, hugePages);
                row["size_mib"] = size / MiB;
                row["round"] = round;
                row["huge_pages"] = hugePages;
                row["load_average"] = LoadAverage();
                Console.WriteLine(row.ToJsonString());
                rows.Add(row);
            }
        }

        return rows;
    }

    private static JsonObject MachineBaseline(long size, PointerChaseBuffer chase, int cores, bool hugePages = false)
    {
        const int ChaseSteps = 1 << 20;
        long updates = size / 32; // two updates per line: 32M at 1 GiB
        using var buffer = new LineUpdateBuffer(size, hugePages);
        var best = new Dictionary<string, double>();
        void Keep(string name, double ns) => best[name] = best.TryGetValue(name, out double seen) ? Math.Min(seen, ns) : ns;

        // Each figure the fastest of three, one thread and every core alternating, so that both see the same minutes.
        _ = buffer.UpdateNs(cores, updates / 4, byRegion: true); // untimed: the loops' code optimised, the threads made
        for (int repeat = 0; repeat < 3; repeat++)
        {
            foreach (int threads in new[] { 1, cores })
            {
                Keep($"region_{threads}", buffer.UpdateNs(threads, updates, byRegion: true));
                Keep($"locked_{threads}", buffer.LockedUpdateNs(threads, updates));
                Keep($"random_{threads}", buffer.UpdateNs(threads, updates, byRegion: false));
                Keep($"chase_{threads}", LineUpdateBuffer.Together(threads, (long)threads * ChaseSteps, t => chase.WalkFrom((uint)((long)chase.Nodes * t / threads), ChaseSteps)));
            }
        }

        var result = new JsonObject { ["threads"] = cores };
        foreach (string kind in new[] { "region", "locked", "random", "chase" })
        {
            // ns per update (per step) with all threads together: wall time over the total.
            result[$"{kind}_1t_ns"] = Math.Round(best[$"{kind}_1"], 2);
            result[$"{kind}_{cores}t_ns"] = Math.Round(best[$"{kind}_{cores}"], 2);
            result[$"{kind}_speed_up"] = Math.Round(best[$"{kind}_1"] / best[$"{kind}_{cores}"], 2);
        }

        return result;
    }
}
