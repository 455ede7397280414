namespace EventLog.Server.Tests;

/// <summary>Short in CI; set EVENTFILTER_RELIABILITY=full for the long run (more kill rounds, a larger sweep).</summary>
public static class ReliabilityScale
{
    public static bool Full { get; } = string.Equals(Environment.GetEnvironmentVariable("EVENTFILTER_RELIABILITY"), "full", StringComparison.OrdinalIgnoreCase);
}
