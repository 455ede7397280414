using System.Globalization;
using System.Text.Json;
using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace EventLog.Server.Api;

/// <summary>
/// Writes <c>GET /health</c> as JSON: overall status, then each check's status, description and data. Written by hand
/// because a check's data is <c>object</c>-typed, which source-generated JSON cannot serialize.
/// </summary>
internal static class HealthResponseWriter
{
    public static async Task WriteAsync(HttpContext context, HealthReport report)
    {
        context.Response.ContentType = "application/json; charset=utf-8";
        await using var json = new Utf8JsonWriter(context.Response.Body, new JsonWriterOptions { Indented = true });
        json.WriteStartObject();
        json.WriteString("status", report.Status.ToString());
        json.WriteNumber("totalDurationMs", Math.Round(report.TotalDuration.TotalMilliseconds, 3));
        json.WriteStartObject("checks");
        foreach ((string name, HealthReportEntry entry) in report.Entries)
        {
            json.WriteStartObject(name);
            json.WriteString("status", entry.Status.ToString());
            json.WriteString("description", entry.Description);
            json.WriteStartObject("data");
            foreach ((string key, object value) in entry.Data)
            {
                WriteValue(json, key, value);
            }

            json.WriteEndObject();
            json.WriteEndObject();
        }

        json.WriteEndObject();
        json.WriteEndObject();
        await json.FlushAsync(context.RequestAborted).ConfigureAwait(false);
    }

    private static void WriteValue(Utf8JsonWriter json, string key, object value)
    {
        switch (value)
        {
            case long n: json.WriteNumber(key, n); break;
            case int n: json.WriteNumber(key, n); break;
            case double d: json.WriteNumber(key, d); break;
            case bool b: json.WriteBoolean(key, b); break;
            default: json.WriteString(key, Convert.ToString(value, CultureInfo.InvariantCulture)); break;
        }
    }
}
