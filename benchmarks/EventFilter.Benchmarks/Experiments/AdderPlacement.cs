using System.Runtime.InteropServices;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>flush --adder-cpu N</c>: pins the paced adding thread to one CPU, to tell what the machine does to a CPU (the block
/// device's interrupts land on one vCPU here, see /proc/interrupts) from what our checkpoints do. Unset, the scheduler places it.
/// </summary>
internal static partial class AdderPlacement
{
    /// <summary>The CPU the adding thread is pinned to, or null.</summary>
    public static int? Cpu { get; set; }

    /// <summary>Pins the calling thread when a CPU was asked for; on Linux an affinity is per thread.</summary>
    public static void ApplyToCurrentThread()
    {
        if (Cpu is not { } cpu)
        {
            return;
        }

        ulong mask = 1UL << cpu;
        if (SchedSetAffinity(0, sizeof(ulong), ref mask) != 0)
        {
            throw new InvalidOperationException($"sched_setaffinity to CPU {cpu} failed (errno {Marshal.GetLastPInvokeError()})");
        }
    }

    /// <summary>Lets the calling thread run anywhere again.</summary>
    public static void Release()
    {
        ulong mask = (1UL << Math.Min(Environment.ProcessorCount, 63)) - 1;
        _ = SchedSetAffinity(0, sizeof(ulong), ref mask);
    }

    [LibraryImport("libc", EntryPoint = "sched_setaffinity", SetLastError = true)]
    private static partial int SchedSetAffinity(int threadId, nint maskBytes, ref ulong mask);
}
