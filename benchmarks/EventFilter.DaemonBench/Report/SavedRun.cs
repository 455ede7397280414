using System.Text.Json;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Report;

/// <summary>
/// Reads a run back from the JSON <see cref="JsonReport"/> wrote, so that <c>--table FILE</c> prints the same Markdown
/// tables the run printed: docs/benchmarks-daemon.md's table is regenerated from the JSON beside it, not copied by hand.
/// </summary>
internal static class SavedRun
{
    /// <exception cref="InvalidOperationException">The file is not a DaemonBench JSON report, named in the message.</exception>
    public static RunResult Read(string path)
    {
        try
        {
            using JsonDocument document = JsonDocument.Parse(File.ReadAllBytes(path));
            JsonElement root = document.RootElement;
            bool quick = root.GetProperty("quick").GetBoolean();
            var modes = root.GetProperty("modes").EnumerateArray().Select(mode => ReadMode(mode, quick)).ToList();
            // Reports saved before the RedisBloom column have no "redisbloom": the column is left out, saying so.
            string? redisBloom = root.TryGetProperty("redisbloom", out JsonElement module) ? module.GetString() : null;
            string? redisBloomSkipped = root.TryGetProperty("redisbloom_skipped", out JsonElement reason) ? reason.GetString() : "this report was saved before the harness had a RedisBloom column";
            return new RunResult(quick, root.GetProperty("ours").GetString()!, root.GetProperty("redis").GetString(), root.GetProperty("redis_skipped").GetString(), redisBloom, redisBloomSkipped, modes);
        }
        catch (Exception error) when (error is JsonException or KeyNotFoundException or InvalidOperationException or FormatException or IOException)
        {
            throw new InvalidOperationException($"{path}: not a DaemonBench JSON report ({error.Message})", error);
        }
    }

    private static ModeResult ReadMode(JsonElement mode, bool quick)
    {
        string name = mode.GetProperty("mode").GetString()!;
        JsonElement load = mode.GetProperty("load_average");
        var rows = mode.GetProperty("rows").EnumerateArray().Select(row => ReadRow(row, pinned: name == "pinned", quick)).ToList();
        return new ModeResult(name, load.GetProperty("before").GetString()!, load.GetProperty("after").GetString()!, rows);
    }

    private static RowResult ReadRow(JsonElement row, bool pinned, bool quick)
    {
        string name = row.GetProperty("name").GetString()!;
        return new RowResult(
            name,
            row.GetProperty("unit").GetString()!,
            row.GetProperty("better").GetString() == "higher",
            ReadFigure(row, "ours") ?? throw new InvalidOperationException($"row '{name}' has no figure of ours"),
            ReadFigure(row, "redis"),
            ReadFigure(row, "redisbloom"),
            Goals.For(name, pinned).Limit,
            row.GetProperty("goal").GetString()!,
            Judged: !quick);
    }

    /// <summary>The figure named <paramref name="server"/> with its distribution; null when it is null or absent.</summary>
    private static Measurement? ReadFigure(JsonElement row, string server) =>
        row.TryGetProperty(server, out JsonElement value) && value.ValueKind != JsonValueKind.Null
            ? new Measurement(value.GetDouble(), ReadDistribution(row.GetProperty(server + "_distribution")))
            : null;

    private static Distribution? ReadDistribution(JsonElement d) => d.ValueKind == JsonValueKind.Null
        ? null
        : new Distribution(d.GetProperty("p50_ns").GetDouble(), d.GetProperty("p95_ns").GetDouble(), d.GetProperty("p99_ns").GetDouble(),
            d.GetProperty("p999_ns").GetDouble(), d.GetProperty("max_ns").GetDouble(), d.GetProperty("samples").GetInt32());
}
