using System.Globalization;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// The file descriptors filters and restores hold (a digest log 1, a layer <see cref="StartCheck.DescriptorsPerLayer"/>,
/// counted as they open and close), against RLIMIT_NOFILE less what the listener and connections may need: a new filter
/// or restore that would not fit is refused with an error naming the limit, while adds to existing filters, and the
/// layers they grow, go on. Running out would otherwise fail at a random system call, or abort the runtime
/// ("Out of memory."). See docs/daemon.md, "Starting and stopping".
/// </summary>
internal static class DescriptorBudget
{
    private static long s_held;
    private static int s_maxClients = 1024;
    // The descriptors the process holds besides filters and restores (the runtime's, the host's), measured at start.
    private static long s_base;

    /// <summary>Descriptors the open filters and restores hold now.</summary>
    public static long Held => Volatile.Read(ref s_held);

    /// <summary>The --max-clients connections kept out of the budget; the start checks that they fit.</summary>
    public static int MaxClients => s_maxClients;

    /// <summary>Before the start: <paramref name="maxClients"/> connections are kept out of the budget.</summary>
    public static void Configure(int maxClients) => s_maxClients = maxClients;

    /// <summary>Once the filters are open: what the process holds besides them is kept out of the budget too.</summary>
    public static void MeasureBase() => s_base = Math.Max(0, ProcessLimits.OpenDescriptors() - Held);

    public static void Opened(int descriptors) => Interlocked.Add(ref s_held, descriptors);

    public static void Closed(int descriptors) => Interlocked.Add(ref s_held, -descriptors);

    /// <summary>Null when <paramref name="what"/>, needing <paramref name="descriptors"/> more, fits; else the refusal's text.</summary>
    public static string? Refusal(string what, int descriptors)
    {
        long limit = ProcessLimits.CurrentDescriptorLimit();
        long held = Held;
        long reserved = s_base + StartCheck.SpareDescriptors + s_maxClients;
        if (held + descriptors <= limit - reserved)
        {
            return null;
        }

        return string.Create(CultureInfo.InvariantCulture,
            $"max number of file descriptors reached: {what} needs {descriptors} more, the filters and restores hold {held:N0} of RLIMIT_NOFILE {limit:N0} ({reserved:N0} kept for the process and --max-clients connections); adds to existing filters go on. DEL filters or raise LimitNOFILE");
    }
}

/// <summary>
/// A new filter or restore refused for lack of descriptors: back-pressure, not a storage failure. Its reply is
/// "ERR " and the message, and it is only warned of (Commands/DescriptorLimitWarning.cs); nothing was changed.
/// </summary>
internal sealed class DescriptorLimitException(string message) : IOException(message);
