using System.Buffers.Text;
using EventFilter.Daemon.Filters;
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
        error = !Utf8Parser.TryParse(text, out capacity, out int used) || used != text.Length ? "ERR bad capacity"
            : capacity <= 0 ? "ERR (capacity should be larger than 0)"
            : null;
        return error is null;
    }

    public static bool TryExpansion(ReadOnlySpan<byte> text, out int expansion, out string? error)
    {
        error = !Utf8Parser.TryParse(text, out expansion, out int used) || used != text.Length || expansion < 1 || expansion > 32768 ? "ERR bad expansion" : null;
        return error is null;
    }

    /// <summary>Whether the filter can be made at all: its first layer fits the size limit. Any key can be (docs/daemon.md, "Files").</summary>
    public static string? CheckCreate(FilterParameters parameters) =>
        parameters.LayerOptions(0) is null ? $"ERR capacity {parameters.Capacity} at error rate {parameters.ErrorRate} needs a filter over {FilterParameters.MaxLayerBytes} bytes" : null;

    public static bool Is(ReadOnlySpan<byte> argument, ReadOnlySpan<byte> keyword) => System.Text.Ascii.EqualsIgnoreCase(argument, keyword);
}
