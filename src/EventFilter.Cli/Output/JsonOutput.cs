using System.Text.Json;
using System.Text.Json.Serialization.Metadata;

namespace EventFilter.Cli.Output;

/// <summary>Writes a report as one JSON object on stdout, through the source-generated <see cref="CliJsonContext"/>.</summary>
internal static class JsonOutput
{
    public static void Write<T>(TextWriter output, T report, JsonTypeInfo<T> type) =>
        output.WriteLine(JsonSerializer.Serialize(report, type));
}
