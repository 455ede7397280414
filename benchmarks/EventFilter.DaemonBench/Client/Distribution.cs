using System.Diagnostics;

namespace EventFilter.DaemonBench.Client;

/// <summary>Percentiles of one row's per-operation times, in nanoseconds.</summary>
internal sealed record Distribution(double P50, double P95, double P99, double P999, double Max, int Samples)
{
    /// <summary>Sorts <paramref name="ticks"/> (Stopwatch ticks) in place and reads the percentiles off it.</summary>
    public static Distribution FromTicks(Span<long> ticks)
    {
        ticks.Sort();
        return new Distribution(At(ticks, 0.50), At(ticks, 0.95), At(ticks, 0.99), At(ticks, 0.999), Nanoseconds(ticks[^1]), ticks.Length);
    }

    private static double At(ReadOnlySpan<long> sorted, double quantile) => Nanoseconds(sorted[Math.Min(sorted.Length - 1, (int)(quantile * sorted.Length))]);

    public static double Nanoseconds(long ticks) => ticks * 1e9 / Stopwatch.Frequency;
}
