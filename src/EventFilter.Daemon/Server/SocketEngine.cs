namespace EventFilter.Daemon.Server;

/// <summary>
/// How .NET's socket engine runs what follows a completed read or write: on its own event threads, one per core, the
/// way Redis's event loop does, rather than handed on to the thread pool. A request then costs no thread switch between
/// the epoll wake-up and its reply (measured against the thread pool in docs/decisions/async-connections.md). Adds
/// never wait for the disk there: their fsync before a reply (--log-sync always) waits in <see cref="LogSyncQueue"/>.
/// </summary>
internal static class SocketEngine
{
    /// <summary>The runtime's switch, read once when the engine starts (at the first asynchronous socket call).</summary>
    public const string InlineCompletionsVariable = "DOTNET_SYSTEM_NET_SOCKETS_INLINE_COMPLETIONS";

    /// <summary>Runs completions inline unless the environment already chose (<c>0</c> turns it off); call before any socket call.</summary>
    public static void PreferInlineCompletions()
    {
        if (Environment.GetEnvironmentVariable(InlineCompletionsVariable) is null)
        {
            Environment.SetEnvironmentVariable(InlineCompletionsVariable, "1");
        }
    }
}
