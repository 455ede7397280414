namespace EventFilter.Daemon.Server;

/// <summary>
/// How .NET's socket engine runs what follows a completed accept: inline on its event thread, rather than handed on to
/// the thread pool, and on one thread: the clients themselves are served by the daemon's own event loops
/// (<see cref="EventLoop"/>), so the engine only accepts (and carries the watchdog's probe).
/// </summary>
internal static class SocketEngine
{
    /// <summary>The runtime's switch, read once when the engine starts (at the first asynchronous socket call).</summary>
    public const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>The runtime's count of event threads, read at the same time.</summary>
    public const string ThreadCountVariable = "DOTNET_SYSTEM_NET_SOCKETS_THREAD_COUNT";

    /// <summary>
    /// Runs completions inline on one event thread, unless the environment already chose (<c>0</c> for inline
    /// completions turns them off); call before any socket call.
    /// </summary>
    public static void PreferInlineCompletions()
    {
        if (Environment.GetEnvironmentVariable(InlineCompletionsVariable) is null)
        {
            Environment.SetEnvironmentVariable(InlineCompletionsVariable, "1");
            if (Environment.GetEnvironmentVariable(ThreadCountVariable) is null)
            {
                Environment.SetEnvironmentVariable(ThreadCountVariable, "1");
            }
        }
    }
}
