namespace EventFilter.Daemon.Server;

/// <summary>
/// How .NET's socket engine runs what follows a completed read or write: on its own event threads, the way Redis's
/// event loop does, rather than handed on to the thread pool. A request then costs no thread switch between the epoll
/// wake-up and its reply (measured against the thread pool in docs/decisions/async-connections.md). Adds never wait for
/// the disk there: their fsync before a reply (--log-sync always) waits in <see cref="LogSyncQueue"/>. One event thread
/// per two cores, not the runtime's one per core: the clients' adds meet on their filter's lock, and two event threads
/// on two cores spun for it (sched_yield), where one left the other core to the clients and the sync tick
/// (docs/benchmarks-daemon.md, "Many clients").
/// </summary>
internal static class SocketEngine
{
    /// <summary>The runtime's switch, read once when the engine starts (at the first asynchronous socket call).</summary>
    public const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>The runtime's count of event threads, read at the same time.</summary>
    public const string ThreadCountVariable = "DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT";

    /// <summary>Event threads unless the environment says: one per two cores, at least one.</summary>
    public static int DefaultThreads => Math.Max(1, Environment.ProcessorCount / 2);

    /// <summary>
    /// Runs completions inline on <see cref="DefaultThreads"/> event threads, unless the environment already chose
    /// (<c>0</c> for inline completions turns them off); call before any socket call.
    /// </summary>
    public static void PreferInlineCompletions()
    {
        if (Environment.GetEnvironmentVariable(InlineCompletionsVariable) is null)
        {
            Environment.SetEnvironmentVariable(InlineCompletionsVariable, "1");
            if (Environment.GetEnvironmentVariable(ThreadCountVariable) is null)
            {
                Environment.SetEnvironmentVariable(ThreadCountVariable, DefaultThreads.ToString(System.Globalization.CultureInfo.InvariantCulture));
            }
        }
    }
}
