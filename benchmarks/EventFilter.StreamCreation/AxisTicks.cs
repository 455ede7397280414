using System.Globalization;

namespace EventFilter.StreamCreation;

/// <summary>Short labels for stream counts (500k, 1.5M) in the chart and the tables.</summary>
internal static class AxisTicks
{
    /// <summary>A count as the chart shows it: 0, 750, 12.5k, 3M.</summary>
    public static string Label(double value) => value switch
    {
        >= 1_000_000 => Trim(value / 1_000_000) + "M",
        >= 1_000 => Trim(value / 1_000) + "k",
        _ => Trim(value),
    };

    private static string Trim(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
