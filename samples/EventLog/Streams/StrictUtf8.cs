using System.Text;
using EventLog.Errors;

namespace EventLog.Streams;

/// <summary>
/// Turns names into the UTF-8 bytes the log stores, rejecting what UTF-8 cannot say: a lone surrogate would otherwise
/// be replaced by U+FFFD, so two different strings would name the same stream.
/// </summary>
internal static class StrictUtf8
{
    private static readonly UTF8Encoding Encoding = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    /// <summary>The stream name's bytes; throws <see cref="InvalidStreamNameException"/> for an empty, too long or malformed name.</summary>
    public static byte[] EncodeStreamName(string? streamName)
    {
        if (string.IsNullOrEmpty(streamName))
        {
            throw new InvalidStreamNameException(streamName, "it is empty");
        }

        byte[] bytes = TryEncode(streamName) ?? throw new InvalidStreamNameException(streamName, "it is not well-formed UTF-16 (a lone surrogate)");
        if (bytes.Length > EventLimits.MaxStreamNameBytes)
        {
            throw new InvalidStreamNameException(streamName, $"it is {bytes.Length} UTF-8 bytes; the limit is {EventLimits.MaxStreamNameBytes}");
        }

        return bytes;
    }

    /// <summary>The event type's bytes; throws <see cref="InvalidEventException"/> for an empty, too long or malformed type.</summary>
    public static byte[] EncodeEventType(string? eventType, int index)
    {
        if (string.IsNullOrEmpty(eventType))
        {
            throw new InvalidEventException(index, "its event type is empty");
        }

        byte[] bytes = TryEncode(eventType) ?? throw new InvalidEventException(index, "its event type is not well-formed UTF-16");
        if (bytes.Length > EventLimits.MaxEventTypeBytes)
        {
            throw new InvalidEventException(index, $"its event type is {bytes.Length} UTF-8 bytes; the limit is {EventLimits.MaxEventTypeBytes}");
        }

        return bytes;
    }

    /// <summary>Decodes bytes the engine itself stored (already checked when written).</summary>
    public static string Decode(ReadOnlySpan<byte> utf8) => Encoding.GetString(utf8);

    private static byte[]? TryEncode(string text)
    {
        try
        {
            return Encoding.GetBytes(text);
        }
        catch (EncoderFallbackException)
        {
            return null;
        }
    }
}
