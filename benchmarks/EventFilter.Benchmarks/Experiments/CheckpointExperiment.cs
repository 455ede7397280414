using System.Diagnostics;
using System.Globalization;
using System.Text.Json;
using System.Text.Json.Nodes;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>flush [--json FILE]</c>: what a checkpoint costs the adds running beside it, and what it writes as the device
/// counts it, for ours and the classic design, on a 256 MiB filter at design load, in one run.
/// <list type="number">
/// <item>Warm-up: 1M new names and a checkpoint (ours also folds), so every page has been written once.</item>
/// <item>Latency: one thread adds new names paced at 200k/s, timing each add, with no checkpoint running and then
/// while another thread checkpoints back to back; plus the first add after each of 2,000 checkpoints.</item>
/// <item>Bytes: one checkpoint after 10k new names, counted by the block device (and /proc/self/io) before it returns;
/// then 1M new names checkpointed every 10k, all bytes counted, background work included (ours waits for its fold).</item>
/// </list>
/// See docs/benchmarks-checkpoints.md, "Stall and write volume".
/// </summary>
public static class CheckpointExperiment
{
    public const long SizeBytes = 256L << 20;
    private const int AddsPerSecond = 200_000;
    private const int CheckpointEvery = 10_000;
    private const int AmortizedNames = 1_000_000;
    private const int FirstAddSamples = 2_000;

    public static int Run(string? jsonPath)
    {
        var devices = new DeviceCounters(BenchmarkDirectory.Path);
        double[] loadBefore = LoadAverage();
        var names = new FreshNames();
        StreamNames hits = StreamNames.Hits();
        var results = new JsonObject();
        foreach (Func<ICheckpointDesign> create in new Func<ICheckpointDesign>[] { () => new OursDesign(SizeBytes), () => new ClassicDesign(SizeBytes, hits) })
        {
            using ICheckpointDesign design = create();
            Console.WriteLine($"// {design.Name}: warm-up");
            WarmUp(design, names);
            results[design.Name] = Measure(design, names, devices);
        }

        results["load_average"] = new JsonArray(LoadAverage().Select(l => (JsonNode)l).ToArray());
        results["load_average_before"] = new JsonArray(loadBefore.Select(l => (JsonNode)l).ToArray());
        results["device"] = devices.Device;
        results["size_bytes"] = SizeBytes;
        results["adds_per_second"] = AddsPerSecond;
        string json = results.ToJsonString(new JsonSerializerOptions { WriteIndented = true });
        if (jsonPath is not null)
        {
            File.WriteAllText(jsonPath, json);
        }

        PrintTable(results);
        return 0;
    }

    private static void WarmUp(ICheckpointDesign design, FreshNames names)
    {
        foreach (byte[] name in names.Next(1 << 20))
        {
            design.Add(name);
        }

        design.Checkpoint(0);
        design.WaitIdle();
        (design as OursDesign)?.Fold();
    }

    private static JsonObject Measure(ICheckpointDesign design, FreshNames names, DeviceCounters devices)
    {
        var result = new JsonObject();
        var folds = new Intervals("fold", 10_000);
        if (design is OursDesign ours)
        {
            ours.Folds = folds;
        }

        Console.WriteLine($"// {design.Name}: paced adds, no checkpoint");
        (Latencies quiet, JsonObject quietStalls) = PacedRun.Adds(design, names.Next(AddsPerSecond * 5), AddsPerSecond, 5, checkpointing: false, folds);
        design.WaitIdle();
        Console.WriteLine($"// {design.Name}: paced adds, checkpoints back to back");
        (Latencies busy, JsonObject busyStalls) = PacedRun.Adds(design, names.Next(AddsPerSecond * 10), AddsPerSecond, 10, checkpointing: true, folds);
        design.WaitIdle();
        Console.WriteLine($"// {design.Name}: the control, the same paced loop reading the clock without adding, checkpoints back to back");
        (Latencies control, JsonObject controlStalls) = PacedRun.Adds(design, new byte[AddsPerSecond * 5][], AddsPerSecond, 5, checkpointing: true, folds, clockOnly: true);
        design.WaitIdle();
        result["stalls_no_checkpoint"] = quietStalls;
        result["stalls_checkpointing"] = busyStalls;
        result["stalls_clock_only_checkpointing"] = controlStalls;
        result["clock_only_p999_us"] = control.Quantile(0.999);
        result["clock_only_max_us"] = control.Quantile(1);
        result["p50_us"] = busy.Quantile(0.50);
        result["p99_us"] = busy.Quantile(0.99);
        result["p999_us"] = busy.Quantile(0.999);
        result["max_us"] = busy.Quantile(1);
        result["mean_us"] = busy.Mean;
        result["mean_no_checkpoint_us"] = quiet.Mean;
        result["p999_no_checkpoint_us"] = quiet.Quantile(0.999);
        result["max_no_checkpoint_us"] = quiet.Quantile(1);
        result["p9999_us"] = busy.Quantile(0.9999);
        result["paced_seconds"] = busy.Seconds;
        result["paced_elapsed_seconds"] = busy.ElapsedSeconds;
        result["checkpoints_during_latency_run"] = busy.Checkpoints;

        Console.WriteLine($"// {design.Name}: first add after a checkpoint");
        Latencies first = FirstAddAfterCheckpoint(design, names);
        result["first_add_after_checkpoint_us"] = first.Quantile(0.50);
        result["first_add_after_checkpoint_p99_us"] = first.Quantile(0.99);
        design.WaitIdle();

        Console.WriteLine($"// {design.Name}: bytes of one checkpoint after 10k new names");
        design.Checkpoint(0);
        design.WaitIdle();
        Sync();
        DeviceCounters.Snapshot before = devices.Read();
        AddMany(design, names, CheckpointEvery); // counted too: a shared mapping's adds dirty pages the kernel may write
        FlushResult one = design.Checkpoint(1);
        DeviceCounters.Snapshot spent = devices.Read() - before;
        result["device_bytes_checkpoint_10k"] = spent.DeviceBytes;
        result["process_write_bytes_checkpoint_10k"] = spent.ProcessWriteBytes;
        result["reported_bytes_checkpoint_10k"] = one.BytesFlushed;
        result["checkpoint_10k_ms"] = one.Duration.TotalMilliseconds;
        design.WaitIdle();

        Console.WriteLine($"// {design.Name}: 1M new names, a checkpoint every 10k, background work included");
        Sync();
        long reportedBackground = design.ReportedBackgroundBytes;
        before = devices.Read();
        long reported = 0;
        for (int done = 0; done < AmortizedNames; done += CheckpointEvery)
        {
            AddMany(design, names, CheckpointEvery);
            reported += design.Checkpoint(done + CheckpointEvery).BytesFlushed;
        }

        design.WaitIdle();
        spent = devices.Read() - before;
        long checkpoints = AmortizedNames / CheckpointEvery;
        result["device_bytes_per_10k_amortized"] = spent.DeviceBytes / checkpoints;
        result["process_write_bytes_per_10k_amortized"] = spent.ProcessWriteBytes / checkpoints;
        result["reported_bytes_per_10k_amortized"] = (reported + design.ReportedBackgroundBytes - reportedBackground) / checkpoints;
        return result;
    }

    private static Latencies FirstAddAfterCheckpoint(ICheckpointDesign design, FreshNames names)
    {
        long[] ticks = new long[FirstAddSamples];
        byte[][] batch = names.Next(FirstAddSamples * 11);
        for (int i = 0; i < FirstAddSamples; i++)
        {
            for (int j = 0; j < 10; j++)
            {
                design.Add(batch[(i * 11) + j]);
            }

            design.Checkpoint(i);
            long began = Stopwatch.GetTimestamp();
            design.Add(batch[(i * 11) + 10]);
            ticks[i] = Stopwatch.GetTimestamp() - began;
        }

        return new Latencies(ticks, 0, 0, FirstAddSamples);
    }

    private static void AddMany(ICheckpointDesign design, FreshNames names, int count)
    {
        foreach (byte[] name in names.Next(count))
        {
            design.Add(name);
        }
    }

    /// <summary>Lets earlier writes (other processes', the kernel's) reach the device before a counter is read.</summary>
    private static void Sync()
    {
        using var sync = Process.Start(new ProcessStartInfo("sync") { UseShellExecute = false });
        sync?.WaitForExit(); // sync returns once the writes are complete, and the device counts them at completion
    }

    private static double[] LoadAverage() =>
        File.ReadAllText("/proc/loadavg").Split(' ').Take(3).Select(v => double.Parse(v, CultureInfo.InvariantCulture)).ToArray();

    private static void PrintTable(JsonObject results)
    {
        string[] keys = ["p50_us", "p99_us", "p999_us", "p9999_us", "max_us", "max_no_checkpoint_us", "clock_only_max_us", "mean_us", "mean_no_checkpoint_us", "first_add_after_checkpoint_us", "paced_elapsed_seconds", "checkpoints_during_latency_run",
            "device_bytes_checkpoint_10k", "process_write_bytes_checkpoint_10k", "reported_bytes_checkpoint_10k", "device_bytes_per_10k_amortized", "process_write_bytes_per_10k_amortized", "reported_bytes_per_10k_amortized"];
        var rows = keys.Select(k => new[] { k, Format(results["ours"]![k]), Format(results["classic"]![k]) }).ToList();
        Console.WriteLine($"Checkpoint experiment, {SizeBytes >> 20} MiB at design load, device {results["device"]}, load average {results["load_average"]!.ToJsonString()}");
        Console.WriteLine();
        MarkdownTable.Print(["measure", "ours", "classic"], rows);
    }

    private static string Format(JsonNode? node)
    {
        if (node is null)
        {
            return "-";
        }

        double value = double.Parse(node.ToJsonString(), CultureInfo.InvariantCulture);
        return value == Math.Floor(value) ? value.ToString("N0", CultureInfo.InvariantCulture) : value.ToString("F2", CultureInfo.InvariantCulture);
    }

    /// <summary>New names on demand: a 60-byte pool of 1M names, moved to a new generation whenever it runs out.</summary>
    private sealed class FreshNames
    {
        private readonly StreamNames _pool = new("signup");
        private int _generation;
        private int _used = int.MaxValue;

        public byte[][] Next(int count)
        {
            byte[][] names = new byte[count][];
            for (int i = 0; i < count; i++)
            {
                if (_used >= _pool.Count)
                {
                    _pool.SetGeneration(++_generation);
                    _used = 0;
                }

                // Copied: the pool's arrays are rewritten in place by the next generation.
                names[i] = (byte[])_pool.Utf8[_used++].Clone();
            }

            return names;
        }
    }
}
