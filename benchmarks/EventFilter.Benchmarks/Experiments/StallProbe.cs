using System.Diagnostics;
using System.Runtime.InteropServices;
using System.Text.Json.Nodes;
using Microsoft.Win32.SafeHandles;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// What a paced thread waited for when one of its operations took more than <see cref="SlowTicks"/>: every
/// <see cref="Window"/> operations it samples, on its own thread, the runtime's GC pause total and collection count,
/// the thread's page faults and context switches (<c>getrusage(RUSAGE_THREAD)</c>) and the time it spent runnable but
/// not running (<c>run_delay</c> of <c>/proc/thread-self/schedstat</c>). A slow operation is reported with the deltas
/// of the window that holds it, beside what the other threads were doing then (<see cref="Intervals"/>).
/// Sampling per window keeps the probe off the timed path: a syscall per operation would load the core it measures.
/// </summary>
internal sealed partial class StallProbe : IDisposable
{
    public const int Window = 64;
    public static readonly long SlowTicks = Stopwatch.Frequency / 1000; // 1 ms

    private readonly SafeFileHandle _schedstat;
    private readonly Sample[] _samples;
    private readonly byte[] _text = new byte[128];
    private readonly long[] _usage = new long[18];
    private int _taken;

    /// <summary>Call on the thread to be probed: /proc/thread-self names the thread that opens it.</summary>
    public StallProbe(int operations)
    {
        _schedstat = File.OpenHandle("/proc/thread-self/schedstat");
        _samples = new Sample[(operations / Window) + 2];
    }

    /// <summary>Takes a sample when <paramref name="operation"/> starts a window (and once more at the end).</summary>
    public void AtOperation(int operation)
    {
        if (operation % Window == 0)
        {
            Take();
        }
    }

    public void Take()
    {
        if (GetRusage(RusageThread, _usage) != 0)
        {
            throw new InvalidOperationException("getrusage(RUSAGE_THREAD) failed.");
        }

        int read = RandomAccess.Read(_schedstat, _text, 0);
        _samples[_taken++] = new Sample(
            Stopwatch.GetTimestamp(),
            GC.GetTotalPauseDuration().Ticks,
            GC.CollectionCount(0) + GC.CollectionCount(1) + GC.CollectionCount(2),
            _usage[8],
            _usage[9],
            _usage[16],
            _usage[17],
            SecondField(_text.AsSpan(0, read)));
    }

    /// <summary>
    /// One entry per operation over <see cref="SlowTicks"/>: when it began (ms from <paramref name="start"/>), how
    /// long it took, and its window's deltas; then what <paramref name="others"/> were doing at that moment.
    /// </summary>
    public JsonObject Report(long start, long[] began, long[] ticks, Intervals[] others)
    {
        var slow = new JsonArray();
        int count = 0;
        long gcInSlow = 0, delayedSlow = 0, faultedSlow = 0, othersSlow = 0;
        for (int i = 0; i < ticks.Length; i++)
        {
            if (ticks[i] < SlowTicks)
            {
                continue;
            }

            count++;
            int w = Math.Min(i / Window, _taken - 2);
            Sample a = _samples[w], b = _samples[w + 1];
            double us = Us(ticks[i]);
            double gcUs = (b.GcPauseTicks - a.GcPauseTicks) / 10.0;
            double delayUs = (b.RunDelayNs - a.RunDelayNs) / 1000.0;
            string? other = Overlapping(others, began[i], began[i] + ticks[i]);
            gcInSlow += gcUs > 0 ? 1 : 0;
            delayedSlow += delayUs >= us / 2 ? 1 : 0;
            faultedSlow += b.MinorFaults - a.MinorFaults + b.MajorFaults - a.MajorFaults > 0 ? 1 : 0;
            othersSlow += other is null ? 0 : 1;
            if (slow.Count < 40)
            {
                slow.Add(new JsonObject
                {
                    ["at_ms"] = Math.Round(Us(began[i] - start) / 1000, 3),
                    ["us"] = Math.Round(us, 1),
                    ["window_us"] = Math.Round(Us(b.Ticks - a.Ticks), 1),
                    ["gc_pause_us"] = Math.Round(gcUs, 1),
                    ["gcs"] = b.Collections - a.Collections,
                    ["run_delay_us"] = Math.Round(delayUs, 1),
                    ["involuntary_switches"] = b.InvoluntarySwitches - a.InvoluntarySwitches,
                    ["voluntary_switches"] = b.VoluntarySwitches - a.VoluntarySwitches,
                    ["minor_faults"] = b.MinorFaults - a.MinorFaults,
                    ["major_faults"] = b.MajorFaults - a.MajorFaults,
                    ["others"] = other,
                });
            }
        }

        Sample first = _samples[0], last = _samples[_taken - 1];
        return new JsonObject
        {
            ["slow_count"] = count,
            ["slow_with_gc_pause"] = gcInSlow,
            ["slow_mostly_run_delay"] = delayedSlow,
            ["slow_with_page_faults"] = faultedSlow,
            ["slow_beside_other_work"] = othersSlow,
            ["run_delay_total_ms"] = Math.Round((last.RunDelayNs - first.RunDelayNs) / 1e6, 2),
            ["involuntary_switches_total"] = last.InvoluntarySwitches - first.InvoluntarySwitches,
            ["gc_pause_total_ms"] = Math.Round((last.GcPauseTicks - first.GcPauseTicks) / 1e4, 2),
            ["gcs_total"] = last.Collections - first.Collections,
            ["minor_faults_total"] = last.MinorFaults - first.MinorFaults,
            ["slow"] = slow,
        };
    }

    public void Dispose() => _schedstat.Dispose();

    private static string? Overlapping(Intervals[] others, long start, long end)
    {
        string[] found = others.Select(o => o.At(start, end)).OfType<string>().ToArray();
        return found.Length == 0 ? null : string.Join(", ", found);
    }

    private static double Us(long ticks) => ticks * 1e6 / Stopwatch.Frequency;

    // "cpu_time run_delay timeslices": the second number, in nanoseconds.
    private static long SecondField(ReadOnlySpan<byte> text)
    {
        int at = text.IndexOf((byte)' ') + 1;
        long value = 0;
        while (at < text.Length && text[at] is >= (byte)'0' and <= (byte)'9')
        {
            value = (value * 10) + (text[at++] - '0');
        }

        return value;
    }

    private const int RusageThread = 1;

    // struct rusage on 64-bit Linux: two timevals, then 14 longs (ru_minflt is long 8, ru_nvcsw 16, ru_nivcsw 17).
    [LibraryImport("libc", EntryPoint = "getrusage")]
    private static partial int GetRusage(int who, [Out] long[] usage);

    private readonly record struct Sample(long Ticks, long GcPauseTicks, int Collections, long MinorFaults, long MajorFaults, long VoluntarySwitches, long InvoluntarySwitches, long RunDelayNs);
}
