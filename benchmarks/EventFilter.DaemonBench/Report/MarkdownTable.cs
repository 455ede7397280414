using System.Globalization;
using System.Text;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Report;

/// <summary>
/// Prints a run's modes as the Markdown tables docs/benchmarks-daemon.md carries: every server's figure and
/// distribution, our lead over each peer, the source's published figures for reference, and the goal. RedisBloom's
/// columns are there only when it ran; otherwise one line above the tables says why they are left out.
/// </summary>
internal static class MarkdownTable
{
    public static string Format(RunResult run)
    {
        bool withRedisBloom = run.RedisBloom is not null;
        string note = withRedisBloom ? "" : $"RedisBloom column left out: {run.RedisBloomSkipped ?? "not in this run"}.\n\n";
        return note + string.Join('\n', run.Modes.Select(mode => Format(mode, withRedisBloom)));
    }

    private static string Format(ModeResult mode, bool withRedisBloom)
    {
        List<string> header = ["row", "eventfilterd", "Redis (sets)", "Redis / ours"];
        if (withRedisBloom)
        {
            header.AddRange(["RedisBloom", "RedisBloom / ours"]);
        }

        header.AddRange(["ours p50 / p99 / p99.9 / max", "Redis p50 / p99 / p99.9 / max"]);
        if (withRedisBloom)
        {
            header.Add("RedisBloom p50 / p99 / p99.9 / max");
        }

        header.AddRange(["source: bloomd", "source: RedisBloom", "goal", "met"]);
        var table = new StringBuilder()
            .Append(CultureInfo.InvariantCulture, $"{mode.Mode} (load average before {mode.LoadBefore}, after {mode.LoadAfter})\n\n")
            .Append(Line(header))
            .Append('|').Append(string.Concat(header.Select(_ => "---|"))).Append('\n');
        foreach (RowResult row in mode.Rows)
        {
            table.Append(Line(Cells(row, withRedisBloom)));
        }

        return table.ToString();
    }

    private static List<string> Cells(RowResult row, bool withRedisBloom)
    {
        List<string> cells = [row.Name, Figure(row.Ours.Value, row.Unit), Peer(row.Redis, row.Unit, "skipped"), Ratio(row.Lead(row.Redis))];
        if (withRedisBloom)
        {
            // A row that does not apply to RedisBloom (a restart of a server that keeps no data) has no figure.
            cells.AddRange([Peer(row.RedisBloom, row.Unit, "n/a"), Ratio(row.Lead(row.RedisBloom))]);
        }

        cells.AddRange([Spread(row.Ours.Distribution, row.Unit), Spread(row.Redis?.Distribution, row.Unit)]);
        if (withRedisBloom)
        {
            cells.Add(Spread(row.RedisBloom?.Distribution, row.Unit));
        }

        (double? bloomd, double? redisBloom) = PublishedFigures.For(row.Name);
        string met = row.Met switch { true => "yes", false => "**no**", null => "n/a" };
        cells.AddRange([Figure(bloomd, row.Unit), Figure(redisBloom, row.Unit), row.Goal, met]);
        return cells;
    }

    private static string Line(IEnumerable<string> cells) => "| " + string.Join(" | ", cells) + " |\n";

    private static string Peer(Measurement? figure, string unit, string missing) => figure is null ? missing : Figure(figure.Value, unit);

    private static string Ratio(double? lead) => lead is { } l ? l.ToString("0.00x", CultureInfo.InvariantCulture) : "";

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
