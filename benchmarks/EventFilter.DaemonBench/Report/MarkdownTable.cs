using System.Globalization;
using System.Text;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Report;

/// <summary>
/// Prints one mode's rows as the Markdown table docs/benchmarks-daemon.md carries: both servers' figures and distributions,
/// the source's published figures for reference, and the goal.
/// </summary>
internal static class MarkdownTable
{
    public static string Format(ModeResult mode)
    {
        var table = new StringBuilder()
            .Append(CultureInfo.InvariantCulture, $"{mode.Mode} (load average before {mode.LoadBefore}, after {mode.LoadAfter})\n\n")
            .Append("| row | eventfilterd | Redis (sets) | Redis / ours | ours p50 / p99 / p99.9 / max | Redis p50 / p99 / p99.9 / max | source: bloomd | source: RedisBloom | goal | met |\n")
            .Append("|---|---|---|---|---|---|---|---|---|---|\n");
        foreach (RowResult row in mode.Rows)
        {
            string ratio = row.Redis is null ? "" : (row.HigherIsBetter ? row.Ours.Value / row.Redis.Value : row.Redis.Value / row.Ours.Value).ToString("0.00x", CultureInfo.InvariantCulture);
            string met = row.Met switch { true => "yes", false => "**no**", null => "n/a" };
            (double? bloomd, double? redisBloom) = PublishedFigures.For(row.Name);
            table.Append(CultureInfo.InvariantCulture,
                $"| {row.Name} | {Figure(row.Ours.Value, row.Unit)} | {(row.Redis is null ? "skipped" : Figure(row.Redis.Value, row.Unit))} | {ratio} | {Spread(row.Ours.Distribution, row.Unit)} | {Spread(row.Redis?.Distribution, row.Unit)} | {Figure(bloomd, row.Unit)} | {Figure(redisBloom, row.Unit)} | {row.Goal} | {met} |\n");
        }

        return table.ToString();
    }

    /// <summary>Nanosecond units read better in microseconds at these magnitudes.</summary>
    private static string Figure(double? value, string unit) => value is { } v ? Figure(v, unit) : "";

    private static string Figure(double value, string unit) => unit switch
    {
        "ns/op" or "ns/item" or "ns/cycle" or "ns" => string.Create(CultureInfo.InvariantCulture, $"{value / 1000:0.00} µs{unit[2..]}"),
        "ms" or "MB" => string.Create(CultureInfo.InvariantCulture, $"{value:0.0} {unit}"),
        _ => string.Create(CultureInfo.InvariantCulture, $"{value:N0} {unit}"),
    };

    /// <summary>Per-operation times (per batch, cycle or start) in µs; start-up times in ms, like their row.</summary>
    private static string Spread(Distribution? d, string unit)
    {
        if (d is null)
        {
            return "";
        }

        (double scale, string suffix) = unit == "ms" ? (1e6, "ms") : (1e3, "µs");
        return string.Create(CultureInfo.InvariantCulture, $"{d.P50 / scale:0.0} / {d.P99 / scale:0.0} / {d.P999 / scale:0.0} / {d.Max / scale:0} {suffix}");
    }
}
