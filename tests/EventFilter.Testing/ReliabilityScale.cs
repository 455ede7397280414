namespace EventFilter.Testing;

/// <summary>
/// The reliability suite runs short in CI and long on demand: set EVENTFILTER_RELIABILITY=full
/// (see docs/reliability.md for the command and the last full run's figures).
/// </summary>
public static class ReliabilityScale
{
    public static bool Full { get; } = string.Equals(Environment.GetEnvironmentVariable("EVENTFILTER_RELIABILITY"), "full", StringComparison.OrdinalIgnoreCase);

    public static int Pick(int ci, int full) => Full ? full : ci;

    public static TimeSpan Pick(TimeSpan ci, TimeSpan full) => Full ? full : ci;
}
