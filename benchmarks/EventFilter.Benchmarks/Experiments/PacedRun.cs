using System.Diagnostics;
using System.Text.Json.Nodes;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// One thread adds names at a fixed pace, timing each add, while another optionally checkpoints back to back; a
/// <see cref="StallProbe"/> says what each add over 1 ms waited for. With <c>clockOnly</c> the loop does everything
/// but the add: the control that shows what the machine alone does to a thread that reads the clock.
/// </summary>
internal static class PacedRun
{
    public static (Latencies Latencies, JsonObject Stalls) Adds(ICheckpointDesign design, byte[][] names, int perSecond, int seconds, bool checkpointing, Intervals folds, bool clockOnly = false)
    {
        int count = perSecond * seconds;
        long[] ticks = new long[count];
        long[] began = new long[count];
        Array.Fill(ticks, 1); // written now, so the loop takes no first-touch page fault of the harness's own
        Array.Fill(began, 1);
        long interval = Stopwatch.Frequency / perSecond;
        var checkpoints = new Intervals("checkpoint", (seconds * 20_000) + 1_000);
        using var stop = new CancellationTokenSource();
        var checkpointer = new Thread(() =>
        {
            if (design.BatchCheckpointer)
            {
                EventFilter.Threading.BackgroundThreads.YieldToForeground();
            }

            long position = 0;
            while (!stop.IsCancellationRequested)
            {
                long started = Stopwatch.GetTimestamp();
                design.Checkpoint(++position);
                checkpoints.Add(started, Stopwatch.GetTimestamp());
            }
        });

        // The harness's own garbage (the names above) is collected now, not by a GC that lands in the timed loop.
        GC.Collect();
        GC.WaitForPendingFinalizers();
        using var probe = new StallProbe(count);
        if (checkpointing)
        {
            checkpointer.Start();
        }

        AdderPlacement.ApplyToCurrentThread();
        long start = Stopwatch.GetTimestamp();
        for (int i = 0; i < count; i++)
        {
            probe.AtOperation(i);
            long due = start + (i * interval);
            while (Stopwatch.GetTimestamp() < due)
            {
                // A real appender waits for the next record; spinning keeps the pace without a timer's jitter.
            }

            long now = Stopwatch.GetTimestamp();
            if (!clockOnly)
            {
                design.Add(names[i]);
            }

            long end = Stopwatch.GetTimestamp();
            began[i] = now;
            ticks[i] = end - now;
        }

        probe.Take();
        AdderPlacement.Release();
        double elapsed = Stopwatch.GetElapsedTime(start).TotalSeconds;
        stop.Cancel();
        if (checkpointing)
        {
            checkpointer.Join();
        }

        JsonObject stalls = probe.Report(start, began, ticks, [checkpoints, folds]);
        stalls["checkpoints"] = checkpoints.Count;
        return (new Latencies(ticks, seconds, elapsed, checkpoints.Count), stalls);
    }
}

/// <summary>Per-add latencies in Stopwatch ticks, reported in microseconds.</summary>
internal sealed class Latencies(long[] ticks, int seconds, double elapsedSeconds, int checkpoints)
{
    private readonly long[] _sorted = ticks.Order().ToArray();

    public double Mean { get; } = Math.Round(ticks.Average() * 1e6 / Stopwatch.Frequency, 3);

    public int Seconds => seconds;

    public double ElapsedSeconds => Math.Round(elapsedSeconds, 2);

    public int Checkpoints => checkpoints;

    public double Quantile(double q) => Math.Round(_sorted[(int)Math.Round(q * (_sorted.Length - 1))] * 1e6 / Stopwatch.Frequency, 3);
}

/// <summary>When another thread did a named piece of work (a checkpoint, a fold): Stopwatch start and end of each.</summary>
internal sealed class Intervals(string name, int capacity)
{
    private readonly long[] _starts = new long[capacity];
    private readonly long[] _ends = new long[capacity];
    private int _count;

    public int Count => Volatile.Read(ref _count);

    /// <summary>Records one piece of work; beyond the capacity the rest are dropped.</summary>
    public void Add(long start, long end)
    {
        int at = Interlocked.Increment(ref _count) - 1;
        if (at < capacity)
        {
            _starts[at] = start;
            _ends[at] = end;
        }
        else
        {
            Interlocked.Decrement(ref _count);
        }
    }

    /// <summary>Names the work that overlapped [start, end], with how long it ran (us), or null when none did.</summary>
    public string? At(long start, long end)
    {
        for (int i = 0; i < Count; i++)
        {
            if (_starts[i] <= end && _ends[i] >= start)
            {
                return $"{name} {(_ends[i] - _starts[i]) * 1e6 / Stopwatch.Frequency:F0} us";
            }
        }

        return null;
    }
}
