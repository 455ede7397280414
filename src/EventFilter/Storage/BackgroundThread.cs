using System.Runtime.InteropServices;

namespace EventFilter.Storage;

/// <summary>
/// Runs bulk work (a fold, or a flush's dense block writes: up to the whole file copied and written) on a thread of
/// its own in the idle scheduling class, so that on a machine with few cores it takes the time adds leave, not the adds' time: at the
/// default priority the scheduler preempted a paced adder for a whole time slice to run it (docs/benchmarks.md,
/// "Checkpoints: stall and write volume"). The thread ends with the work, so its priority never needs restoring.
/// A thread created from it would inherit its policy (and an unprivileged thread cannot raise it back), so the
/// work must not start threads, and the task completes without queueing anything to the thread pool (whose new
/// workers would be born idle-class): it is waited on, never awaited.
/// </summary>
internal static partial class BackgroundThread
{
    private const int Lowest = 19; // nice 19: the lowest priority of a normal thread; no privilege needed

    /// <summary>Starts <paramref name="work"/>; the task completes when it returns, or faults with what it threw.</summary>
    public static Task Start(Action work, string name)
    {
        var done = new TaskCompletionSource();
        var thread = new Thread(() =>
        {
            LowerPriority();
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

    // .NET's Thread.Priority does nothing for a normal thread on Linux; the scheduling policy of the thread id does.
    // SCHED_IDLE rather than nice 19: the scheduler then counts a core running only this work as idle when it places a
    // waking thread (the checkpoint returning from fsync), which goes there instead of preempting the adder's core.
    // Best effort: elsewhere, or if refused, nice 19, or the default priority.
    private static void LowerPriority()
    {
        if (OperatingSystem.IsLinux())
        {
            int thread = GetThreadId();
            long parameter = 0; // struct sched_param { int sched_priority; } = 0, as SCHED_IDLE requires
            if (SetScheduler(thread, SchedIdle, ref parameter) != 0)
            {
                _ = SetPriority(ProcessWhich, thread, Lowest);
            }
        }
    }

    private const int ProcessWhich = 0; // PRIO_PROCESS: on Linux a thread id names one thread
    private const int SchedIdle = 5;

    [LibraryImport("libc", EntryPoint = "sched_setscheduler")]
    private static partial int SetScheduler(int thread, int policy, ref long parameter);

    [LibraryImport("libc", EntryPoint = "setpriority")]
    private static partial int SetPriority(int which, int who, int priority);

    [LibraryImport("libc", EntryPoint = "gettid")]
    private static partial int GetThreadId();
}
