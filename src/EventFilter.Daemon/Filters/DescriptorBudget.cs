using System.Globalization;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// The one count of file descriptors that decides what the daemon acknowledges. Every filter counts the same whatever
/// its state (holding items, pending, on disk, being restored): the files it has open (a digest log 1, a layer
/// <see cref="DescriptorsPerLayer"/>, counted as they open and close) and the ones it is owed but has not opened yet (a
/// pending filter's log and first layer, an empty filter's first layer), claimed from its create until they open or it
/// goes. Against RLIMIT_NOFILE less what the process holds besides and --max-clients connections, a new filter, restore
/// or layer that would not fit is refused with an error naming the limit, so that the daemon never runs out at a random
/// system call (or has the runtime abort, "Out of memory.") and a restart under the same limit opens everything it
/// acknowledged (<see cref="StartCheck"/> counts the same way). See docs/daemon.md, "Starting and stopping".
/// </summary>
internal static class DescriptorBudget
{
    /// <summary>Measured: a layer holds its filter file, its lock file and, between folds, its journal; a filter adds its log.</summary>
    public const int DescriptorsPerLayer = 3;

    /// <summary>
    /// Kept free besides: the start check measures what the process holds before the filters open, the running daemon
    /// after (a few descriptors apart, the control log's among them), and whatever the daemon acknowledged, a start
    /// under the same limit must open.
    /// </summary>
    public const int RestartSlack = 8;

    /// <summary>What a new filter or restore is owed: its log and its first layer.</summary>
    public const int PerNewFilter = 1 + DescriptorsPerLayer;

    private static long s_open;
    private static long s_claimed;
    private static int s_maxClients = 1024;
    // The descriptors the process holds besides filters and restores (the runtime's, the host's), measured at start.
    private static long s_base;

    /// <summary>Descriptors the filters and restores hold or are owed now.</summary>
    public static long Held => Volatile.Read(ref s_open) + Volatile.Read(ref s_claimed);

    /// <summary>The --max-clients connections kept out of the budget; the start checks that they fit.</summary>
    public static int MaxClients => s_maxClients;

    /// <summary>Before the start: <paramref name="maxClients"/> connections are kept out of the budget.</summary>
    public static void Configure(int maxClients) => s_maxClients = maxClients;

    /// <summary>Once the filters are open: what the process holds besides their files is kept out of the budget too.</summary>
    public static void MeasureBase() => s_base = Math.Max(0, ProcessLimits.OpenDescriptors() - Volatile.Read(ref s_open));

    /// <summary>A file opened: if it was claimed, the claim is released by its owner once it is open.</summary>
    public static void Opened(int descriptors) => Interlocked.Add(ref s_open, descriptors);

    public static void Closed(int descriptors) => Interlocked.Add(ref s_open, -descriptors);

    /// <summary>
    /// Claims descriptors a filter is owed, without a check: a create checked <see cref="Refusal"/> first (creates run one
    /// at a time), and what a start brings back the start check counted.
    /// </summary>
    public static void Claim(int descriptors) => Interlocked.Add(ref s_claimed, descriptors);

    /// <summary>Gives back claimed descriptors: their files are open now (and counted), or will never be.</summary>
    public static void Release(int descriptors) => Interlocked.Add(ref s_claimed, -descriptors);

    /// <summary>Null when <paramref name="what"/>, needing <paramref name="descriptors"/> more, fits; else the refusal's text.</summary>
    public static string? Refusal(string what, int descriptors)
    {
        long limit = ProcessLimits.CurrentDescriptorLimit();
        long held = Held;
        long reserved = s_base + StartCheck.SpareDescriptors + s_maxClients + RestartSlack;
        if (held + descriptors <= limit - reserved)
        {
            return null;
        }

        return string.Create(CultureInfo.InvariantCulture,
            $"max number of file descriptors reached: {what} needs {descriptors} more, the filters and restores hold or are owed {held:N0} of RLIMIT_NOFILE {limit:N0} ({reserved:N0} kept for the process and --max-clients connections); adds that fit in a filter's layers go on. DEL filters or raise LimitNOFILE");
    }
}

/// <summary>
/// A new filter, restore or layer refused for lack of descriptors: back-pressure, not a storage failure. Its reply is
/// "ERR " and the message, and it is only warned of (Commands/DescriptorLimitWarning.cs); nothing was changed.
/// </summary>
internal sealed class DescriptorLimitException(string message) : IOException(message);
