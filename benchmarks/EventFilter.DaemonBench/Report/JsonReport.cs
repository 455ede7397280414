using System.Text.Json;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Report;

/// <summary>
/// Writes the run as JSON (the schema is in docs/benchmarks-daemon.md): values in each row's
/// unit, distributions in nanoseconds, and per row whether we are ahead of Redis and of RedisBloom and whether its
/// goal is met. A peer left out of the run has null figures and its reason at the top.
/// </summary>
internal static class JsonReport
{
    public static void Write(string path, RunResult run)
    {
        using FileStream file = File.Create(path);
        using var json = new Utf8JsonWriter(file, new JsonWriterOptions { Indented = true });
        json.WriteStartObject();
        json.WriteString("tool", "EventFilter.DaemonBench");
        json.WriteString("date", DateTimeOffset.UtcNow);
        json.WriteBoolean("quick", run.Quick);
        json.WriteNumber("processors", Environment.ProcessorCount);
        json.WriteString("os", System.Runtime.InteropServices.RuntimeInformation.OSDescription);
        json.WriteString("ours", run.Ours);
        json.WriteString("redis", run.Redis);
        json.WriteString("redis_skipped", run.RedisSkipped);
        json.WriteString("redisbloom", run.RedisBloom);
        json.WriteString("redisbloom_skipped", run.RedisBloomSkipped);
        json.WriteStartArray("modes");
        foreach (ModeResult mode in run.Modes)
        {
            json.WriteStartObject();
            json.WriteString("mode", mode.Mode);
            json.WriteStartObject("load_average");
            json.WriteString("before", mode.LoadBefore);
            json.WriteString("after", mode.LoadAfter);
            json.WriteEndObject();
            json.WriteStartArray("rows");
            foreach (RowResult row in mode.Rows)
            {
                WriteRow(json, row);
            }

            json.WriteEndArray();
            json.WriteEndObject();
        }

        json.WriteEndArray();
        json.WriteEndObject();
    }

    private static void WriteRow(Utf8JsonWriter json, RowResult row)
    {
        json.WriteStartObject();
        json.WriteString("name", row.Name);
        json.WriteString("unit", row.Unit);
        json.WriteString("better", row.HigherIsBetter ? "higher" : "lower");
        json.WriteNumber("ours", Math.Round(row.Ours.Value, 3));
        WriteNullable(json, "redis", row.Redis is null ? null : Math.Round(row.Redis.Value, 3));
        WriteNullable(json, "redisbloom", row.RedisBloom is null ? null : Math.Round(row.RedisBloom.Value, 3));
        WriteDistribution(json, "ours_distribution", row.Ours.Distribution);
        WriteDistribution(json, "redis_distribution", row.Redis?.Distribution);
        WriteDistribution(json, "redisbloom_distribution", row.RedisBloom?.Distribution);
        WriteNullable(json, "ahead", row.Ahead);
        WriteNullable(json, "redisbloom_ahead", row.AheadOfRedisBloom);
        json.WriteString("goal", row.Goal);
        WriteNullable(json, "met", row.Met);
        json.WriteEndObject();
    }

    private static void WriteDistribution(Utf8JsonWriter json, string name, Distribution? distribution)
    {
        if (distribution is null)
        {
            json.WriteNull(name);
            return;
        }

        json.WriteStartObject(name);
        json.WriteNumber("p50_ns", Math.Round(distribution.P50));
        json.WriteNumber("p95_ns", Math.Round(distribution.P95));
        json.WriteNumber("p99_ns", Math.Round(distribution.P99));
        json.WriteNumber("p999_ns", Math.Round(distribution.P999));
        json.WriteNumber("max_ns", Math.Round(distribution.Max));
        json.WriteNumber("samples", distribution.Samples);
        json.WriteEndObject();
    }

    private static void WriteNullable(Utf8JsonWriter json, string name, double? value)
    {
        if (value is { } v)
        {
            json.WriteNumber(name, v);
        }
        else
        {
            json.WriteNull(name);
        }
    }

    private static void WriteNullable(Utf8JsonWriter json, string name, bool? value)
    {
        if (value is { } v)
        {
            json.WriteBoolean(name, v);
        }
        else
        {
            json.WriteNull(name);
        }
    }
}
