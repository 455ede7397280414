using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Workload;
using EventFilter.Durability;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>scale [--large | --sizes MIB,...] [--rounds R] [--bytes-per-name B] [--max-names-millions M] [--only PATH]
/// [--no-phases] [--generated-log] [--pinned] [--json FILE]</c>, <c>scale --verify-only [--sizes ...] [--rounds R]</c>,
/// <c>scale --machine-only [--sizes ...] [--rounds R] [--huge-pages]</c>, <c>scale --plot FILE.json</c>.
/// At 256 MiB and 1 GiB (and 4 GiB with --large), with a name per B bytes of filter (8 by default, at most M million,
/// 160 by default): first the catch-up rounds, a fresh filter caught up from an
/// in-memory log by the previous path (4,096-record reads through the prefetch pipeline), by large batches with the
/// deep prefetch but not partitioned, and by the region path on one thread and on every core; per name to ready,
/// beside a dependent pointer chase over a buffer of the same size and the time to read the log alone, both taken in
/// the same round, and the catch-up with the default options (checkpoints every 16M records included) beside the one
/// without intermediate checkpoints. With --pinned, the experiment then runs itself again under <c>taskset -c 0</c>
/// for the catch-up rounds on one CPU (ScaleExperiment.Pinned.cs). The paths alternate within a round and change order
/// between rounds. Then the phases, on one filter
/// with the default options (ScaleExperiment.Phases.cs): catch-up and final checkpoint, lookups, reopen and verify,
/// online resize. Every added name is asked after each catch-up and the resize, and throughout the resize; one false
/// negative fails the run (exit 1). --only keeps the catch-up paths whose name contains PATH (or one of PATH|PATH...). Each
/// path first runs one untimed catch-up into 64 MiB, so that the timed ones run optimised code.
/// </summary>
public static partial class ScaleExperiment
{
    private const long MiB = 1L << 20;

    /// <summary>Names held in memory at most by default: 47 bytes each, 7.5 GB.</summary>
    private const long DefaultMaxNames = 160_000_000;

    /// <summary>Names at 4 GiB with --large.</summary>
    private const long LargeNames = 1_000_000_000;

    public static int Run(string[] args)
    {
        long[] sizes = Option(args, "--sizes") is { } listed
            ? listed.Split(',').Select(mib => long.Parse(mib, CultureInfo.InvariantCulture) * MiB).ToArray()
            : args.Contains("--large") ? [256 * MiB, 1024 * MiB, 4096 * MiB] : [256 * MiB, 1024 * MiB];
        int rounds = IntOption(args, "--rounds", 2), bytesPerName = IntOption(args, "--bytes-per-name", 8);
        long maxNames = IntOption(args, "--max-names-millions", (int)(DefaultMaxNames / 1_000_000)) * 1_000_000L;
        string? jsonPath = Option(args, "--json");
        int cores = Environment.ProcessorCount;
        if (Option(args, "--plot") is { } plotted)
        {
            return ScaleChart.Write(plotted);
        }

        if (args.Contains("--adds-only"))
        {
            JsonArray adds = AddsOnly(sizes, rounds, cores, IntOption(args, "--threads", 0));
            if (jsonPath is not null)
            {
                File.WriteAllText(jsonPath, new JsonObject { ["adds_only"] = adds, ["machine"] = Machine() }.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
            }

            return 0;
        }

        if (args.Contains("--machine-only"))
        {
            JsonArray machine = MachineOnly(sizes, rounds, cores, args.Contains("--huge-pages"));
            if (jsonPath is not null)
            {
                File.WriteAllText(jsonPath, new JsonObject { ["machine_baseline"] = machine, ["machine"] = Machine() }.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
            }

            return 0;
        }

        if (args.Contains("--verify-only"))
        {
            JsonArray rates = VerifyOnly(sizes, rounds, cores);
            if (jsonPath is not null)
            {
                File.WriteAllText(jsonPath, new JsonObject { ["verify"] = rates, ["machine"] = Machine() }.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
            }

            return 0;
        }

        CatchUpPath[] paths =
        [
            new("pipeline (before)", 1, CatchUpAdds.Pipeline), new("unpartitioned, 1 thread", 1, CatchUpAdds.Unpartitioned),
            new("region, 1 thread", 1, CatchUpAdds.Regions), new($"region, {cores} threads", cores, CatchUpAdds.Regions),
            new($"region, {cores} threads, reads between batches", cores, CatchUpAdds.Regions, ReadAhead: false),
            new(DefaultsPath(cores), cores, CatchUpAdds.Regions, Defaults: true),
        ];
        if (args.Contains(PinnedChild))
        {
            paths = PinnedPaths(); // under taskset -c 0: what one CPU runs, with and without the catch-up's checkpoints
        }

        if (Option(args, "--only") is { } only)
        {
            // To profile one path, or a few: alternatives separated by '|'.
            paths = paths.Where(p => only.Split('|').Any(o => p.Name.Contains(o, StringComparison.Ordinal))).ToArray();
        }

        // One untimed catch-up per path into 64 MiB first, so that no timed round runs code the JIT has not optimised.
        PackedNameLog warmUpLog = PackedNameLog.Numbered(8 << 20, "warmup");
        foreach (CatchUpPath path in paths)
        {
            _ = CatchUpOnce(64 * MiB, warmUpLog, path);
        }

        var rows = new JsonArray();
        var phaseRows = new JsonArray();
        var machineRows = new JsonArray();
        long falseNegatives = 0;
        PackedNameLog absent = PackedNameLog.Numbered(Math.Max(cores, 1) * (long)LookupsPerThread, "absent"); // never added
        foreach (long size in sizes)
        {
            // --large's 4 GiB holds a billion names, as the first measurement at that size did; a log that large is
            // generated as it is read (47 GB would not fit in memory), and so is any log beyond the default cap.
            long names = args.Contains("--large") && size == 4096 * MiB ? LargeNames : Math.Min(size / bytesPerName, maxNames);
            bool generated = names > DefaultMaxNames || args.Contains("--generated-log");
            Console.Error.WriteLine($"{size / MiB} MiB: writing {names:N0} names, building the chase...");
            PackedNameLog log = generated ? PackedNameLog.Generated(names, "scale") : PackedNameLog.Numbered(names, "scale");
            PackedNameLog hits = generated ? PackedNameLog.Numbered(Math.Min(names, cores * (long)LookupsPerThread), "scale") : log; // the same first names
            using var chase = new PointerChaseBuffer(size, hugePages: false);
            for (int round = 1; round <= rounds; round++)
            {
                double chaseNs = ChaseNs(chase), readNs = ReadAloneNs(size, log);
                if (cores > 1)
                {
                    JsonObject machine = MachineBaseline(size, chase, cores);
                    machine["size_mib"] = size / MiB;
                    machine["round"] = round;
                    Console.Error.WriteLine($"  round {round}, the machine alone: {machine.ToJsonString()}");
                    machineRows.Add(machine);
                }

                // Untimed: whichever path ran first in a round was 5-17 ns a name slower than in its other rounds, in
                // both orders (the one after the machine's loops and the chase, with the memory they freed). A file of
                // the size made and dropped first takes that cost, so the paths all follow one such file.
                _ = PopulateAloneNs(size, names, cores);
                foreach (CatchUpPath path in round % 2 == 1 ? paths : paths.Reverse())
                {
                    (double ns, long missing, JsonObject checkpoints) = CatchUpOnce(size, log, path);
                    double populateNs = PopulateAloneNs(size, names, path.Adds == CatchUpAdds.Pipeline ? 1 : path.Threads);
                    falseNegatives += missing;
                    Console.Error.WriteLine($"  round {round}, {path.Name}: {ns:F1} ns/name, chase {chaseNs:F1}, log read alone {readNs:F1}, populate alone {populateNs:F1}, false negatives {missing}");
                    rows.Add(new JsonObject
                    {
                        ["size_mib"] = size / MiB, ["names"] = names, ["generated_log"] = generated, ["path"] = path.Name, ["threads"] = path.Threads, ["round"] = round,
                        ["ns_per_name"] = Math.Round(ns, 1), ["chase_ns"] = Math.Round(chaseNs, 1), ["x_chase"] = Math.Round(ns / chaseNs, 3),
                        ["false_negatives"] = missing, ["log_read_alone_ns"] = Math.Round(readNs, 1), ["populate_alone_ns"] = Math.Round(populateNs, 1),
                        ["cpus"] = cores, ["pinned"] = args.Contains(PinnedChild), ["catch_up_checkpoints"] = checkpoints,
                    });
                }
            }

            if (!args.Contains("--no-phases") && !args.Contains(PinnedChild))
            {
                Console.Error.WriteLine($"{size / MiB} MiB: phases (catch-up, lookups, checkpoint, reopen, verify, resize)...");
                JsonObject phases = Phases(size, log, hits, absent, cores, ref falseNegatives);
                phases["size_mib"] = size / MiB;
                phases["names"] = names;
                phases["chase_ns"] = Math.Round(ChaseNs(chase), 1);
                phases["load_average"] = LoadAverage();
                Console.Error.WriteLine($"  {phases.ToJsonString()}");
                phaseRows.Add(phases);
            }
        }

        if (args.Contains("--pinned") && !args.Contains(PinnedChild))
        {
            falseNegatives += RunPinned(args, rows);
        }

        var result = new JsonObject
        {
            ["rows"] = rows,
            ["phases"] = phaseRows,
            ["machine_baseline"] = machineRows,
            ["machine"] = Machine(),
            ["cores"] = cores,
            ["bytes_per_name"] = bytesPerName,
            ["false_negatives"] = falseNegatives,
            ["load_average"] = LoadAverage(),
        };
        if (jsonPath is not null)
        {
            File.WriteAllText(jsonPath, result.ToJsonString(new JsonSerializerOptions { WriteIndented = true }));
        }

        MarkdownTable.Print(["size", "names", "path", "round", "ns/name to ready", "chase ns", "x chase", "log read alone ns", "populate alone ns", "false negatives"], rows.Select(r => new[]
        {
            $"{r!["size_mib"]} MiB", $"{r["names"]!.GetValue<long>():N0}", r["path"]!.GetValue<string>(), $"{r["round"]}", F(r["ns_per_name"]!), F(r["chase_ns"]!), r["x_chase"]!.GetValue<double>().ToString("F3", CultureInfo.InvariantCulture), F(r["log_read_alone_ns"]!), F(r["populate_alone_ns"]!), $"{r["false_negatives"]}",
        }).ToList());
        if (Array.FindIndex(paths, p => p.Name == "region, 1 thread") is var one and >= 0 && Array.FindIndex(paths, p => p.Name == $"region, {cores} threads") is var all and >= 0)
        {
            PrintGoals(rows, machineRows, sizes, paths, one, all);
        }

        PrintDefaults(rows, sizes);

        Console.WriteLine($"load average: {result["load_average"]}; false negatives: {falseNegatives}");
        return falseNegatives == 0 ? 0 : 1;
    }

    // Per size, the best round of each path: region on one thread against its chase, and the cores' speed-up beside
    // the machine's own for the same kind of access (each loop's best round on one thread over its best on all). The
    // two-core goal is judged on the filter's side, as the goal asks ("reading the log stays the host's cost"): one
    // thread and all cores reading between batches, each round less its own log read alone (there the read is on
    // the critical path, all of it, so taking it off leaves the filter's work). End to end is printed beside it.
    private static void PrintGoals(JsonArray rows, JsonArray machine, long[] sizes, CatchUpPath[] paths, int one, int all)
    {
        string MachineSpeedUp(long size, string kind)
        {
            JsonNode?[] ofSize = machine.Where(m => m!["size_mib"]!.GetValue<long>() == size / MiB).ToArray();
            return ofSize.Length == 0 ? "-" : $"{ofSize.Min(m => m![$"{kind}_1t_ns"]!.GetValue<double>()) / ofSize.Min(m => m![$"{kind}_{m["threads"]}t_ns"]!.GetValue<double>()):F2} x";
        }

        int between = Array.FindIndex(paths, p => p.Threads == paths[all].Threads && !p.ReadAhead);
        MarkdownTable.Print(["size", .. paths.Select(p => p.Name + " (best x chase)"), "speed-up on all cores", "filter's side: between batches, less the log read", "machine's: updates by region", "at random", "chases", "1 thread ≤ 0.25 x chase", "filter's side ≥ 1.7"], sizes.Select(size =>
        {
            // The rounds on every CPU: a --pinned run's child rows share path names ("region, 1 thread") but not the machine.
            JsonNode?[] ofSize = rows.Where(r => r!["size_mib"]!.GetValue<long>() == size / MiB && r["pinned"]?.GetValue<bool>() != true).ToArray();
            double Best(CatchUpPath path, bool lessRead) => ofSize.Where(r => r!["path"]!.GetValue<string>() == path.Name)
                .Min(r => r!["ns_per_name"]!.GetValue<double>() - (lessRead ? r["log_read_alone_ns"]!.GetValue<double>() : 0));
            double[] best = paths.Select(p => Best(p, lessRead: false)).ToArray();
            double chase = ofSize.Min(r => r!["chase_ns"]!.GetValue<double>());
            double speedUp = best[one] / best[all];
            double? filterSide = between < 0 ? null : Best(paths[one], lessRead: true) / Best(paths[between], lessRead: true);
            return (IReadOnlyList<string>)[$"{size / MiB} MiB", .. best.Select(b => $"{b:F1} ns = {b / chase:F3}"), $"{speedUp:F2} x",
                filterSide is { } f ? $"{f:F2} x" : "-", MachineSpeedUp(size, "region"), MachineSpeedUp(size, "random"), MachineSpeedUp(size, "chase"),
                best[one] / chase <= 0.25 ? "yes" : "no", filterSide is { } g ? (g >= 1.7 ? "yes" : "no") : "-"];
        }));
    }

    private static string LoadAverage() => File.ReadAllText("/proc/loadavg").Split(' ')[..3].Aggregate((a, b) => $"{a} {b}");

    private static string Machine() => InstructionSets.DescribeMachine();

    private static string F(JsonNode node) => node.GetValue<double>().ToString("F1", CultureInfo.InvariantCulture);

    private static string? Option(string[] args, string name)
    {
        int at = Array.IndexOf(args, name);
        return at > 0 && at + 1 < args.Length ? args[at + 1] : null;
    }

    private static int IntOption(string[] args, string name, int fallback) =>
        Option(args, name) is { } value ? int.Parse(value, CultureInfo.InvariantCulture) : fallback;

    /// <summary>A catch-up path: how it adds, and its thread cap.</summary>
    /// <remarks>
    /// <paramref name="Defaults"/>: the options a user gets (only the directory and size set), so the catch-up
    /// checkpoints on the way as a user's does (at least <see cref="StreamExistenceFilterOptions.CatchUpCheckpointRecords"/>
    /// records apart, spaced by their cost); the other paths checkpoint only at the end.
    /// </remarks>
    private sealed record CatchUpPath(string Name, int Threads, CatchUpAdds Adds, bool ReadAhead = true, bool Defaults = false);
}
