using System.Globalization;

namespace EventFilter.StreamCreation;

/// <summary>The harness's output, which <c>--plot</c> reads back: <c>config,streams,elapsed_s,window_rate_per_s</c>, one row per window.</summary>
internal static class RateCsv
{
    public const string Header = "config,streams,elapsed_s,window_rate_per_s";

    /// <summary>Reads a CSV this program wrote (for <c>--plot</c>).</summary>
    public static List<RateRow> Read(string path) =>
    [
        .. File.ReadLines(path).Skip(1).Where(line => line.Length > 0).Select(line => line.Split(',')).Select(f => new RateRow(
            f[0], long.Parse(f[1], CultureInfo.InvariantCulture), double.Parse(f[2], CultureInfo.InvariantCulture), double.Parse(f[3], CultureInfo.InvariantCulture))),
    ];

    public static void Write(string path, IEnumerable<RateRow> rows)
    {
        if (Path.GetDirectoryName(Path.GetFullPath(path)) is { } directory)
        {
            Directory.CreateDirectory(directory);
        }

        using var writer = new StreamWriter(path);
        writer.NewLine = "\n";
        writer.WriteLine(Header);
        foreach (RateRow row in rows)
        {
            writer.WriteLine(string.Create(CultureInfo.InvariantCulture, $"{row.Config},{row.Streams},{row.ElapsedSeconds:F3},{row.WindowRatePerSecond:F0}"));
        }
    }
}
