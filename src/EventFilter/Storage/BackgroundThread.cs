using System.Runtime.InteropServices;

namespace EventFilter.Storage;

/// <summary>
/// Runs background work (a fold: hundreds of milliseconds of copying and writing) on a thread of its own at the
/// lowest CPU priority, so that on a machine with few cores it takes the time adds leave, not the adds' time: at the
/// default priority the scheduler preempted a paced adder for a whole time slice to run it (docs/benchmarks.md,
/// "Checkpoints: stall and write volume"). The thread ends with the work, so its priority never needs restoring.
/// A thread created from it would inherit its priority (and an unprivileged thread cannot raise it back), so the
/// work must not start threads, and the task completes without queueing anything to the thread pool (whose new
/// workers would be born at nice 19): it is waited on, never awaited.
/// </summary>
internal static partial class BackgroundThread
{
    private const int Lowest = 19; // nice 19: Linux's lowest priority for a normal thread; no privilege needed

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

    // .NET's Thread.Priority does nothing for a normal thread on Linux; setpriority on the thread id does. Best effort:
    // elsewhere, or if refused, the work runs at the default priority.
    private static void LowerPriority()
    {
        if (OperatingSystem.IsLinux())
        {
            _ = SetPriority(ProcessWhich, GetThreadId(), Lowest);
        }
    }

    private const int ProcessWhich = 0; // PRIO_PROCESS: on Linux a thread id names one thread

    [LibraryImport("libc", EntryPoint = "setpriority")]
    private static partial int SetPriority(int which, int who, int priority);

    [LibraryImport("libc", EntryPoint = "gettid")]
    private static partial int GetThreadId();
}
