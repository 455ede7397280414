using System.Globalization;

namespace EventFilter.StreamCreation;

/// <summary>Round tick values for a chart axis from 0 (1, 2, 2.5 or 5 times a power of ten) and short labels (500k, 1.5M).</summary>
internal static class AxisTicks
{
    /// <summary>Ticks 0, step, 2·step, ... covering <paramref name="max"/>, about <paramref name="target"/> of them.</summary>
    public static IReadOnlyList<double> For(double max, int target = 8)
    {
        if (max <= 0)
        {
            return [0, 1];
        }

        double rough = max / target;
        double power = Math.Pow(10, Math.Floor(Math.Log10(rough)));
        double step = new[] { 1, 2, 2.5, 5, 10 }.Select(m => m * power).First(s => s >= rough);
        int count = (int)Math.Ceiling((max / step) - 1e-9);
        return [.. Enumerable.Range(0, count + 1).Select(i => i * step)];
    }

    /// <summary>A count as the chart shows it: 0, 750, 12.5k, 3M.</summary>
    public static string Label(double value) => value switch
    {
        >= 1_000_000 => Trim(value / 1_000_000) + "M",
        >= 1_000 => Trim(value / 1_000) + "k",
        _ => Trim(value),
    };

    private static string Trim(double value) => value.ToString("0.##", CultureInfo.InvariantCulture);
}
