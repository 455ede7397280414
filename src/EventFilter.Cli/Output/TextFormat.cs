using System.Globalization;

namespace EventFilter.Cli.Output;

/// <summary>Number formats for the text output: invariant culture, so logs and docs read the same everywhere.</summary>
internal static class TextFormat
{
    private static readonly string[] BinaryUnits = ["KiB", "MiB", "GiB", "TiB"];

    /// <summary>12,345,678.</summary>
    public static string Count(long value) => value.ToString("N0", CultureInfo.InvariantCulture);

    /// <summary>A fraction as a percentage with about three significant digits: 2.41%, 0.00120%.</summary>
    public static string Percent(double fraction)
    {
        double percent = fraction * 100;
        if (percent == 0 || double.IsNaN(percent) || double.IsInfinity(percent))
        {
            return percent.ToString("0", CultureInfo.InvariantCulture) + "%";
        }

        int magnitude = (int)Math.Floor(Math.Log10(Math.Abs(percent)));
        int decimals = Math.Clamp(2 - magnitude, 2, 12);

        // 0.99999% rounds up to 1.000%: show it as 1.00%, three significant digits like its neighbours.
        if (Math.Floor(Math.Log10(Math.Abs(Math.Round(percent, decimals)))) > magnitude)
        {
            decimals = Math.Max(2, decimals - 1);
        }

        return percent.ToString("F" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture) + "%";
    }

    /// <summary>"256,000,000 bytes (244.1 MiB)".</summary>
    public static string Bytes(long bytes)
    {
        double scaled = bytes;
        int unit = -1;
        while (scaled >= 1024 && unit < BinaryUnits.Length - 1)
        {
            scaled /= 1024;
            unit++;
        }

        string human = unit < 0 ? string.Empty : string.Create(CultureInfo.InvariantCulture, $" ({scaled:F1} {BinaryUnits[unit]})");
        return $"{Count(bytes)} bytes{human}";
    }

    /// <summary>A duration as h:mm:ss.</summary>
    public static string Duration(TimeSpan duration)
    {
        // Whole hours, not the 0-23 "h" component: an ETA on a huge file can pass a day.
        var whole = TimeSpan.FromSeconds(Math.Round(Math.Max(0, duration.TotalSeconds)));
        return string.Create(CultureInfo.InvariantCulture, $"{(long)whole.TotalHours}:{whole.Minutes:D2}:{whole.Seconds:D2}");
    }

    /// <summary>A fixed-point number: 9.59.</summary>
    public static string Fixed(double value, int decimals) =>
        value.ToString("F" + decimals.ToString(CultureInfo.InvariantCulture), CultureInfo.InvariantCulture);

    /// <summary>
    /// One answer per line, the answer first in a fixed column and in words: "definitely not  order-42". Answers are
    /// spelled for machines with '-' between words ("definitely-not", as JSON and the metric tag have them).
    /// </summary>
    public static string Answer(string answer, string subject) => $"{answer.Replace('-', ' '),-15} {subject}";
}
