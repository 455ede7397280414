using System.Text.Encodings.Web;
using System.Text.Json;
using System.Text.Json.Nodes;
using System.Text.Json.Serialization.Metadata;

namespace EventFilter.Cli.Output;

/// <summary>
/// Writes one JSON object on stdout, through the source-generated <see cref="CliJsonContext"/>. Every object carries
/// <c>exitCode</c>, the process's exit code, so a script that keeps only stdout still has the verdict; a failure is
/// <c>{ "error": "…", "exitCode": N }</c> (docs/operations.md, "JSON output").
/// </summary>
internal static class JsonOutput
{
    /// <summary>The option that asks for JSON.</summary>
    public const string Option = "--json";

    // Read by people and scripts on a terminal, never embedded in HTML: quotes and non-ASCII names stay as they are
    // (the default encoder wrote ' as \u0027).
    private static readonly JsonWriterOptions Indented = new() { Indented = true, Encoder = JavaScriptEncoder.UnsafeRelaxedJsonEscaping };

    /// <summary>True when <paramref name="args"/> ask for JSON: <c>--json</c> before any <c>--</c> (after it, it is a name).</summary>
    public static bool Requested(IReadOnlyList<string> args) =>
        args.TakeWhile(arg => arg != "--").Contains(Option, StringComparer.Ordinal);

    public static void Write<T>(TextWriter output, T report, JsonTypeInfo<T> type, int exitCode)
    {
        var json = (JsonObject)JsonSerializer.SerializeToNode(report, type)!;
        json["exitCode"] = exitCode;
        WriteObject(output, json);
    }

    /// <summary>A failure: the same message as the line on stderr, and the exit code.</summary>
    public static void WriteError(TextWriter output, string message, int exitCode) =>
        WriteObject(output, new JsonObject { ["error"] = message, ["exitCode"] = exitCode });

    private static void WriteObject(TextWriter output, JsonObject json)
    {
        using var buffer = new MemoryStream();
        using (var writer = new Utf8JsonWriter(buffer, Indented))
        {
            json.WriteTo(writer);
        }

        output.WriteLine(System.Text.Encoding.UTF8.GetString(buffer.ToArray()));
    }
}
