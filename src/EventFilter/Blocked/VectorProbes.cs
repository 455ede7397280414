using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Blocked;

/// <summary>
/// Tests up to 16 probes of a key against its line with AVX-512, 8 probes a pass: the 8 probe states from one multiply
/// by the powers of <see cref="Probes.Step"/>, the 8 bit positions by fastrange, the line's 8 words picked by a permute
/// and each probed bit shifted down. The same bits as <see cref="Probes"/> in a loop, with a fifth of the instructions and
/// no chain of dependent multiplies; lookups are bound by those instructions, in cache and in the batch paths. Probes 8-15
/// are the first pass's sequence started from state × Step^8, so a second pass shares the loaded line and costs about as
/// many instructions as the first (k of 9-16, the best k at 12-24 filter bits per name).
/// </summary>
internal static unsafe class VectorProbes
{
    /// <summary>Probes one pass tests.</summary>
    public const int LanesPerPass = 8;

    /// <summary>The largest k the vector path takes: two passes. A larger k uses the scalar loop.</summary>
    public const int MaxK = 2 * LanesPerPass;

    public static bool IsSupported => Avx512F.IsSupported;

    /// <summary>Step^0 .. Step^7 (mod 2^32): lane i holds the multiplier that takes a key's first state to its i-th.</summary>
    private static readonly Vector256<uint> Powers = StepPowers(out SecondPassStep);

    /// <summary>Step^8 (mod 2^32): takes a key's first state to its ninth, where the second pass starts.</summary>
    private static readonly uint SecondPassStep;

    /// <summary>
    /// What a pass needs for <paramref name="probes"/> probes of its 8 (fewer than 1 reads as none): lanes from
    /// <paramref name="probes"/> on read as set. <see cref="UnusedLanes(int)"/> of k - 8 is the second pass's.
    /// </summary>
    public static Vector512<ulong> UnusedLanes(int probes)
    {
        Span<ulong> lanes = stackalloc ulong[LanesPerPass];
        for (int i = 0; i < LanesPerPass; i++)
        {
            lanes[i] = i < probes ? 0UL : 1UL;
        }

        return Vector512.Create<ulong>(lanes);
    }

    /// <summary>True when every probed bit (k at most 8) of the line at <paramref name="words"/> is set; only where <see cref="IsSupported"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, Vector512<ulong> unusedLanes)
    {
        Vector512<ulong> probed = Probed(Vector512.Load(words), state) | unusedLanes;
        return (probed & Vector512<ulong>.One) == Vector512<ulong>.One;
    }

    /// <summary>
    /// <see cref="AllSet(ulong*, uint, Vector512{ulong})"/> for k of 9 to 16: the first pass with every lane used, the
    /// second with <paramref name="unusedSecond"/> (<see cref="UnusedLanes(int)"/> of k - 8).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, Vector512<ulong> unusedFirst, Vector512<ulong> unusedSecond)
    {
        Vector512<ulong> line = Vector512.Load(words);
        Vector512<ulong> probed = (Probed(line, state) | unusedFirst) & (Probed(line, state * SecondPassStep) | unusedSecond);
        return (probed & Vector512<ulong>.One) == Vector512<ulong>.One;
    }

    /// <summary>Lane i holds the line's bit for the probe with state <paramref name="state"/> × Step^i in its lowest bit.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector512<ulong> Probed(Vector512<ulong> line, uint state)
    {
        Vector512<ulong> states = Avx512F.ConvertToVector512UInt64(Vector256.Create(state) * Powers);
        Vector512<ulong> bits = ((states << 9) - (states << 5)) >> 32; // (state * 480) >> 32, as Probes.Bit
        Vector512<ulong> picked = Avx512F.PermuteVar8x64(line, bits >> 6);
        return Avx512F.ShiftRightLogicalVariable(picked, bits & Vector512.Create(63UL));
    }

    private static Vector256<uint> StepPowers(out uint next)
    {
        Span<uint> powers = stackalloc uint[LanesPerPass];
        uint power = 1;
        for (int i = 0; i < LanesPerPass; i++)
        {
            powers[i] = power;
            power *= Probes.Step;
        }

        next = power;
        return Vector256.Create<uint>(powers);
    }
}
