using System.Text;

namespace EventFilter.Cli.Output;

/// <summary>
/// Filter names (Redis keys) are byte strings. Shown as text when they are printable UTF-8, which is nearly always;
/// otherwise quoted with \xNN escapes as redis-cli shows them. Reports carry the hex as well, which is exact.
/// </summary>
internal static class KeyText
{
    private static readonly UTF8Encoding Strict = new(encoderShouldEmitUTF8Identifier: false, throwOnInvalidBytes: true);

    public static string Display(ReadOnlySpan<byte> key)
    {
        try
        {
            string text = Strict.GetString(key);
            if (!text.Any(char.IsControl) && !text.StartsWith('"'))
            {
                return text;
            }
        }
        catch (DecoderFallbackException)
        {
            // Not UTF-8: escaped below.
        }

        var quoted = new StringBuilder("\"");
        foreach (byte b in key)
        {
            quoted.Append(b is >= 0x20 and < 0x7f and not (byte)'"' and not (byte)'\\' ? ((char)b).ToString() : $"\\x{b:x2}");
        }

        return quoted.Append('"').ToString();
    }
}
