using System.Runtime.InteropServices;

namespace EventFilter.Threading;

/// <summary>
/// Threads for bulk background work (a fold, a checkpoint) that must not take a core from the threads that add and
/// look up. On Linux each such thread puts itself in the SCHED_BATCH class: when it wakes (after an fsync, say) it
/// never preempts the thread running on its core, but waits for that thread's turn to end; its share of the CPU is
/// still a normal thread's, so under full load checkpoints slow down with everything else instead of stopping, as they
/// would in SCHED_IDLE. A thread pool thread cannot be used: the class stays with the thread. Elsewhere, or when the
/// kernel refuses, the thread runs as a normal one, which changes latency only, never what is written. Measured in
/// docs/benchmarks-checkpoints.md, "Stall and write volume".
/// </summary>
internal static partial class BackgroundThreads
{
    private const int SchedBatch = 3;

    // Threads this one creates (a thread-pool worker injected while it queues work, say) start as normal threads:
    // only the threads made for bulk work are in the batch class.
    private const int ResetOnFork = 0x40000000;

    /// <summary>Runs <paramref name="work"/> on a new background thread of the batch class; the task ends with it.</summary>
    public static Task Run(string name, Action work)
    {
        var done = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        var thread = new Thread(() =>
        {
            YieldToForeground();
            try
            {
                work();
                done.SetResult();
            }
            catch (Exception error)
            {
                done.SetException(error);
            }
        })
        {
            IsBackground = true,
            Name = name,
        };
        thread.Start();
        return done.Task;
    }

    /// <summary>Puts the calling thread in the batch scheduling class; false where that is not available.</summary>
    public static bool YieldToForeground()
    {
        if (!OperatingSystem.IsLinux())
        {
            return false;
        }

        // pid 0 is the calling thread: on Linux, the scheduling policy belongs to each thread.
        int priority = 0;
        return SetScheduler(0, SchedBatch | ResetOnFork, ref priority) == 0;
    }

    [LibraryImport("libc", EntryPoint = "sched_setscheduler")]
    private static partial int SetScheduler(int pid, int policy, ref int priority);
}
