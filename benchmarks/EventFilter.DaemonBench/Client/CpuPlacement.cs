using System.Runtime.InteropServices;

namespace EventFilter.DaemonBench.Client;

/// <summary>
/// Where the client's threads run. Pinned mode puts each measuring thread on CPU 0, beside the servers (started under
/// <c>taskset -c 0</c>); unpinned lets the scheduler place it. Per thread, because on Linux an affinity set on the
/// process reaches only its main thread.
/// </summary>
internal static partial class CpuPlacement
{
    public static void ApplyToCurrentThread(bool pinned)
    {
        ulong mask = pinned ? 1UL : (1UL << Math.Min(Environment.ProcessorCount, 64)) - 1;
        if (SchedSetAffinity(0, sizeof(ulong), ref mask) != 0)
        {
            throw new InvalidOperationException($"sched_setaffinity failed (errno {Marshal.GetLastPInvokeError()})");
        }
    }

    /// <summary>Signals a server (SIGTERM asks for a clean stop; Process.Kill would send SIGKILL).</summary>
    public static void Terminate(int processId)
    {
        const int SigTerm = 15;
        _ = Kill(processId, SigTerm);
    }

    [LibraryImport("libc", EntryPoint = "sched_setaffinity", SetLastError = true)]
    private static partial int SchedSetAffinity(int threadId, nint maskBytes, ref ulong mask);

    [LibraryImport("libc", EntryPoint = "kill")]
    private static partial int Kill(int processId, int signal);
}
