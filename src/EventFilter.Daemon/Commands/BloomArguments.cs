using System.Buffers.Text;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Commands;

/// <summary>Parsing and checking the numbers BF.RESERVE and BF.INSERT take, with RedisBloom's error texts.</summary>
internal static class BloomArguments
{
    public static bool TryErrorRate(ReadOnlySpan<byte> text, out double rate, out string? error)
    {
        error = !Utf8Parser.TryParse(text, out rate, out int used) || used != text.Length || !double.IsFinite(rate) ? "ERR bad error rate"
            : rate is <= 0 or >= 1 ? "ERR (0 < error rate range < 1)"
            : null;
        return error is null;
    }

    public static bool TryCapacity(ReadOnlySpan<byte> text, out long capacity, out string? error)
    {
        error = !TryInteger(text, out capacity) ? "ERR bad capacity"
            : capacity <= 0 ? "ERR (capacity should be larger than 0)"
            : null;
        return error is null;
    }

    public static bool TryExpansion(ReadOnlySpan<byte> text, out int expansion, out string? error)
    {
        error = !TryInteger(text, out long value) || value is < 1 or > 32768 ? "ERR bad expansion" : null;
        expansion = (int)Math.Clamp(value, 0, 32768);
        return error is null;
    }

    /// <summary>
    /// An integer as Redis's string2ll reads one (RedisBloom's RedisModule_StringToLongLong): an optional '-', then
    /// digits with no leading zero; no '+', no spaces. Utf8Parser alone takes "+10" and "010", which RedisBloom refuses.
    /// </summary>
    private static bool TryInteger(ReadOnlySpan<byte> text, out long value)
    {
        ReadOnlySpan<byte> digits = text.StartsWith("-"u8) ? text[1..] : text;
        bool canonical = digits.Length > 0 && (digits[0] is >= (byte)'1' and <= (byte)'9' || (digits.Length == 1 && digits[0] == '0' && digits.Length == text.Length));
        value = 0;
        return canonical && Utf8Parser.TryParse(text, out value, out int used) && used == text.Length;
    }

    /// <summary>Whether the filter can be made at all: its first layer fits the size limit. Any key can be (docs/daemon.md, "Files").</summary>
    public static string? CheckCreate(FilterParameters parameters) =>
        parameters.LayerOptions(0) is null ? $"ERR capacity {parameters.Capacity} at error rate {parameters.ErrorRate} needs a filter over {FilterParameters.MaxLayerBytes} bytes" : null;

    public static bool Is(ReadOnlySpan<byte> argument, ReadOnlySpan<byte> keyword) => System.Text.Ascii.EqualsIgnoreCase(argument, keyword);
}
