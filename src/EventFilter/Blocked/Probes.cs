using System.Runtime.CompilerServices;
using EventFilter.Format;

namespace EventFilter.Blocked;

/// <summary>
/// Where a key's bits live. The high 32 bits of its hash pick the line by fastrange (multiply-shift, no modulo);
/// the low 32 bits seed the k bit positions inside that line's 480 bits. A key spread over L lines takes L - 1 more
/// lines from a mix of its hash and k probes divided over them. See docs/file-format.md, section "Probes".
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

    /// <summary>SplitMix64's increment: slot j of a spread key mixes hash + j × this.</summary>
    private const ulong SlotGamma = 0x9E3779B97F4A7C15;

    /// <summary>
    /// The distinct data lines of a key spread over <c>lines.Length</c> lines (at most <paramref name="lineCount"/>): slot 0
    /// is <see cref="Line"/>, slot j the fastrange of the high half of SplitMix64's finalizer of hash + j × 0x9E3779B97F4A7C15,
    /// moved on by one line (wrapping) while it equals an earlier slot's line.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void SpreadLines(ulong hash, uint lineCount, Span<uint> lines)
    {
        lines[0] = Line(hash, lineCount);
        for (int slot = 1; slot < lines.Length; slot++)
        {
            ulong z = hash + ((ulong)slot * SlotGamma);
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
            uint line = Line(z ^ (z >> 31), lineCount);
            while (lines[..slot].Contains(line))
            {
                line = line + 1 == lineCount ? 0 : line + 1;
            }

            lines[slot] = line;
        }
    }

    /// <summary>The probes slot <paramref name="slot"/> of a key spread over <paramref name="linesPerKey"/> lines takes: k / L, one more for the first k mod L slots.</summary>
    public static int SlotProbes(int k, int linesPerKey, int slot) => (k / linesPerKey) + (slot < k % linesPerKey ? 1 : 0);
}
