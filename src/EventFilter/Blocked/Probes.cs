using System.Runtime.CompilerServices;
using EventFilter.Format;

namespace EventFilter.Blocked;

/// <summary>
/// Where a key's bits live. The high 32 bits of its hash pick the line by fastrange (multiply-shift, no modulo);
/// the low 32 bits seed the k bit positions inside that line's 480 bits. See docs/file-format.md, section "Probes".
/// </summary>
internal static class Probes
{
    /// <summary>Multiplier that advances the probe state: 2^32 / golden ratio, odd, so the sequence does not collapse.</summary>
    public const uint Step = 0x9E3779B9;

    /// <summary>The line (0-based, data lines only) that holds every bit of <paramref name="hash"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint Line(ulong hash, uint lineCount) => (uint)(((hash >> 32) * lineCount) >> 32);

    /// <summary>The bit (0-479) of the probe with state <paramref name="state"/>; fastrange onto 480.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static uint Bit(uint state) => (uint)(((ulong)state * FilterGeometry.BitsPerLine) >> 32);
}
