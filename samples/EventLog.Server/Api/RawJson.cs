using System.Runtime.InteropServices;
using System.Text.Json;
using System.Text.Json.Serialization;

namespace EventLog.Server.Api;

/// <summary>
/// Any JSON value, kept as its UTF-8 text: an event's <c>data</c> and <c>metadata</c> go into the log as the bytes the
/// client sent and come back out verbatim, never turned into objects and back. Empty means "absent" (written as null).
/// </summary>
[JsonConverter(typeof(RawJsonConverter))]
internal readonly record struct RawJson(ReadOnlyMemory<byte> Utf8)
{
    public bool IsEmpty => Utf8.IsEmpty;
}

/// <summary>Reads a JSON value of any kind into a <see cref="RawJson"/>, and writes one back as raw JSON.</summary>
internal sealed class RawJsonConverter : JsonConverter<RawJson>
{
    public override RawJson Read(ref Utf8JsonReader reader, Type typeToConvert, JsonSerializerOptions options)
    {
        // ParseValue copes with values split across buffers and enforces the options' MaxDepth on nested data.
        using JsonDocument value = JsonDocument.ParseValue(ref reader);
        return new RawJson(JsonMarshal.GetRawUtf8Value(value.RootElement).ToArray());
    }

    public override void Write(Utf8JsonWriter writer, RawJson value, JsonSerializerOptions options)
    {
        ArgumentNullException.ThrowIfNull(writer);
        if (value.IsEmpty)
        {
            writer.WriteNullValue();
            return;
        }

        // Validated: only this server writes events, always valid JSON, but a damaged log must not become invalid output.
        writer.WriteRawValue(value.Utf8.Span, skipInputValidation: false);
    }
}
