namespace EventFilter.Daemon.Tests;

/// <summary>Short in CI; set EVENTFILTER_RELIABILITY=full for the long run (more kills, more malformed frames).</summary>
public static class ReliabilityScale
{
    public static bool Full { get; } = string.Equals(Environment.GetEnvironmentVariable("EVENTFILTER_RELIABILITY"), "full", StringComparison.OrdinalIgnoreCase);

    public static int Pick(int ci, int full) => Full ? full : ci;
}
