using System.Diagnostics;
using System.Globalization;
using EventFilter.Benchmarks.Peers;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>flush</c>, part 2: the latency of single adds of new names on one thread, timed one by one with
/// <see cref="Stopwatch.GetTimestamp"/>, with no flush running and then while another thread flushes in a loop.
/// A flush must not block adds; what it can still cost them is a page fault on the first write to each page it
/// cleaned (the kernel write-protects pages when it writes them back), and that shows up in the tail.
/// </summary>
public static class AddLatencyExperiment
{
    private const int Generations = 4; // 4 x 1M new names per phase

    public static void Run(StreamNames hits)
    {
        long size = FlushVolumeExperiment.SizeBytes;
        var names = new StreamNames("latncy");
        int generation = 0;
        var rows = new List<string[]>();
        using (FilterFile ours = LoadedFilters.OpenCopy(size, "latency.filter"))
        {
            WarmUp(name => ours.Add(name), ours.Flush, names, ref generation);
            rows.Add(Measure("EventFilter", flushing: false, name => ours.Add(name), ours.Flush, names, ref generation));
            rows.Add(Measure("EventFilter", flushing: true, name => ours.Add(name), ours.Flush, names, ref generation));
            BenchmarkDirectory.DeleteQuietly(ours.Path);
        }

        using (ClassicBloomFilter classic = LoadedFilters.CreateClassic(size, hits, "classic-latency.filter"))
        {
            WarmUp(name => classic.Add(name), classic.Flush, names, ref generation);
            rows.Add(Measure("classic", flushing: false, name => classic.Add(name), classic.Flush, names, ref generation));
            rows.Add(Measure("classic", flushing: true, name => classic.Add(name), classic.Flush, names, ref generation));
            BenchmarkDirectory.DeleteQuietly(classic.Path);
        }

        Console.WriteLine($"Add latency of new names, {size >> 20} MiB filter at design load, UTF-8 form, one thread; timer overhead (median of an empty pair) {TimerOverheadNs():F0} ns is included.");
        Console.WriteLine();
        MarkdownTable.Print(["filter", "flush loop running", "adds", "mean", "p50", "p90", "p99", "p99.9", "p99.99", "max", "flushes (mean time, mean bytes)"], rows);
    }

    /// <summary>
    /// Flushes once, then adds a pool of names untimed: the flush leaves every page write-protected, and the
    /// no-flush phase should not pay the one-off fault of the first write to each page.
    /// </summary>
    private static void WarmUp(Func<byte[], bool> add, Func<FlushResult> flush, StreamNames names, ref int generation)
    {
        flush();
        names.SetGeneration(++generation);
        foreach (byte[] name in names.Utf8)
        {
            add(name);
        }
    }

    private static string[] Measure(string filter, bool flushing, Func<byte[], bool> add, Func<FlushResult> flush, StreamNames names, ref int generation)
    {
        long[] ticks = new long[names.Count * Generations];
        int flushes = 0;
        double flushMs = 0, flushBytes = 0;
        using var stop = new CancellationTokenSource();
        var flusher = new Thread(() =>
        {
            while (!stop.IsCancellationRequested)
            {
                FlushResult result = flush();
                flushes++;
                flushMs += result.Duration.TotalMilliseconds;
                flushBytes += result.BytesFlushed;
            }
        });
        if (flushing)
        {
            flusher.Start();
        }

        for (int g = 0; g < Generations; g++)
        {
            names.SetGeneration(++generation);
            int offset = g * names.Count;
            for (int i = 0; i < names.Count; i++)
            {
                long started = Stopwatch.GetTimestamp();
                add(names.Utf8[i]);
                ticks[offset + i] = Stopwatch.GetTimestamp() - started;
            }
        }

        stop.Cancel();
        if (flushing)
        {
            flusher.Join();
        }

        double meanNs = ticks.Average() * 1e9 / Stopwatch.Frequency;
        Array.Sort(ticks);
        string flushSummary = flushing
            ? $"{flushes} ({(flushMs / Math.Max(flushes, 1)).ToString("F1", CultureInfo.InvariantCulture)} ms, {(flushBytes / Math.Max(flushes, 1) / (1 << 20)).ToString("F1", CultureInfo.InvariantCulture)} MiB)"
            : "-";
        return [filter, flushing ? "yes" : "no", ticks.Length.ToString("N0", CultureInfo.InvariantCulture),
            $"{meanNs.ToString("F0", CultureInfo.InvariantCulture)} ns",
            Nanos(ticks, 0.50), Nanos(ticks, 0.90), Nanos(ticks, 0.99), Nanos(ticks, 0.999), Nanos(ticks, 0.9999), Nanos(ticks, 1), flushSummary];
    }

    private static string Nanos(long[] sorted, double quantile)
    {
        long ticks = sorted[(int)Math.Round(quantile * (sorted.Length - 1))];
        double ns = ticks * 1e9 / Stopwatch.Frequency;
        return ns >= 10_000 ? $"{(ns / 1000).ToString("F0", CultureInfo.InvariantCulture)} µs" : $"{ns.ToString("F0", CultureInfo.InvariantCulture)} ns";
    }

    private static double TimerOverheadNs()
    {
        long[] samples = new long[100_000];
        for (int i = 0; i < samples.Length; i++)
        {
            long started = Stopwatch.GetTimestamp();
            samples[i] = Stopwatch.GetTimestamp() - started;
        }

        Array.Sort(samples);
        return samples[samples.Length / 2] * 1e9 / Stopwatch.Frequency;
    }
}
