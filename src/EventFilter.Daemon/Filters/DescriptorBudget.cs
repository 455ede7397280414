using System.Globalization;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// The one count of file descriptors that decides what the daemon acknowledges. Every filter counts the same whatever
/// its state (holding items, pending, on disk, being restored): the files it has open (a digest log 1, a layer
/// <see cref="DescriptorsPerLayer"/>, counted as they open and close) and the ones it is owed but has not opened yet (a
/// pending filter's log and first layer, an empty filter's first layer), held as a <see cref="DescriptorClaim"/> from
/// its create until they open or it goes. Against RLIMIT_NOFILE less what the process holds besides and --max-clients
/// connections, a new filter, restore or layer that would not fit is refused with an error naming the limit, so that
/// the daemon never runs out at a random system call (or has the runtime abort, "Out of memory.") and a restart under
/// the same limit opens everything it acknowledged (<see cref="StartCheck"/> counts the same way). The check and the
/// claim are one atomic step, and a file's open draws from its claim in one step, so no two threads are admitted to the
/// same room and a refusal never sees a file counted twice. See docs/daemon.md, "Starting and stopping".
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

    // What the budget decides on: the filters' and restores' open files plus their claims. Changed by one atomic step
    // per event, so a reader never sees a file between its claim and its open.
    private static long s_held;
    // The open files alone, for MeasureBase.
    private static long s_open;
    private static int s_maxClients = 1024;
    // The descriptors the process holds besides filters and restores (the runtime's, the host's), measured at start.
    private static long s_base;

    /// <summary>Descriptors the filters and restores hold or are owed now.</summary>
    public static long Held => Volatile.Read(ref s_held);

    /// <summary>The --max-clients connections kept out of the budget; the start checks that they fit.</summary>
    public static int MaxClients => s_maxClients;

    /// <summary>Before the start: <paramref name="maxClients"/> connections are kept out of the budget.</summary>
    public static void Configure(int maxClients) => s_maxClients = maxClients;

    /// <summary>Once the filters are open: what the process holds besides their files is kept out of the budget too.</summary>
    public static void MeasureBase() => s_base = Math.Max(0, ProcessLimits.OpenDescriptors() - Volatile.Read(ref s_open));

    /// <summary>
    /// A file of <paramref name="descriptors"/> opened: drawn from <paramref name="claim"/> as far as it has them, the
    /// rest counted now (a file the start check counted, a restore's later layer).
    /// </summary>
    public static void Opened(int descriptors, DescriptorClaim? claim)
    {
        Interlocked.Add(ref s_open, descriptors);
        int unclaimed = descriptors - (claim?.Take(descriptors) ?? 0);
        if (unclaimed > 0)
        {
            Add(unclaimed);
        }
    }

    /// <summary>A file closed: called once its descriptors are closed, so the count is never below what is open.</summary>
    public static void Closed(int descriptors)
    {
        Interlocked.Add(ref s_open, -descriptors);
        Add(-descriptors);
    }

    /// <summary>
    /// Claims <paramref name="descriptors"/> for <paramref name="what"/> when they fit, in one step with the check.
    /// </summary>
    /// <exception cref="DescriptorLimitException">They do not fit; nothing is claimed.</exception>
    public static DescriptorClaim Claim(string what, int descriptors) =>
        TryClaim(descriptors, out long held) ?? throw new DescriptorLimitException(Refusal(what, descriptors, held));

    /// <summary>Claims <paramref name="descriptors"/> when they fit, in one step with the check; null when they do not.</summary>
    public static DescriptorClaim? TryClaim(int descriptors) => TryClaim(descriptors, out _);

    /// <summary>Counts descriptors claimed (positive) or given back (negative) outside a checked claim.</summary>
    internal static void Add(long descriptors) => Interlocked.Add(ref s_held, descriptors);

    private static DescriptorClaim? TryClaim(int descriptors, out long held)
    {
        while (true)
        {
            held = Volatile.Read(ref s_held);
            if (held + descriptors > ProcessLimits.CurrentDescriptorLimit() - Reserved)
            {
                return null;
            }

            if (Interlocked.CompareExchange(ref s_held, held + descriptors, held) == held)
            {
                return DescriptorClaim.Counted(descriptors);
            }
        }
    }

    private static long Reserved => s_base + StartCheck.SpareDescriptors + s_maxClients + RestartSlack;

    private static string Refusal(string what, int descriptors, long held) => string.Create(CultureInfo.InvariantCulture,
        $"max number of file descriptors reached: {what} needs {descriptors} more, the filters and restores hold or are owed {held:N0} of RLIMIT_NOFILE {ProcessLimits.CurrentDescriptorLimit():N0} ({Reserved:N0} kept for the process and --max-clients connections); adds that fit in a filter's layers go on. DEL filters or raise LimitNOFILE");
}

/// <summary>
/// A new filter, restore or layer refused for lack of descriptors: back-pressure, not a storage failure. Its reply is
/// "ERR " and the message, and it is only warned of (Commands/DescriptorLimitWarning.cs); nothing was changed.
/// </summary>
internal sealed class DescriptorLimitException(string message) : IOException(message);
