using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Blocked;

/// <summary>
/// Tests up to 8 probes of a key against its line in one AVX-512 pass: the 8 probe states from one multiply by the
/// powers of <see cref="Probes.Step"/>, the 8 bit positions by fastrange, the line's 8 words picked by a permute and
/// each probed bit shifted down. The same bits as <see cref="Probes"/> in a loop, with a fifth of the instructions and
/// no chain of dependent multiplies; lookups are bound by those instructions, in cache and in the batch paths.
/// </summary>
internal static unsafe class VectorProbes
{
    public const int MaxK = 8;

    public static bool IsSupported => Avx512F.IsSupported;

    /// <summary>Step^0 .. Step^7 (mod 2^32): lane i holds the multiplier that takes a key's first state to its i-th.</summary>
    private static readonly Vector256<uint> Powers = StepPowers();

    /// <summary>What <see cref="AllSet"/> needs for <paramref name="k"/> probes: lanes k..7 read as set.</summary>
    public static Vector512<ulong> UnusedLanes(int k)
    {
        Span<ulong> lanes = stackalloc ulong[MaxK];
        for (int i = 0; i < MaxK; i++)
        {
            lanes[i] = i < k ? 0UL : 1UL;
        }

        return Vector512.Create<ulong>(lanes);
    }

    /// <summary>True when every probed bit of the line at <paramref name="words"/> is set; only where <see cref="IsSupported"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, Vector512<ulong> unusedLanes)
    {
        Vector512<ulong> states = Avx512F.ConvertToVector512UInt64(Vector256.Create(state) * Powers);
        Vector512<ulong> bits = ((states << 9) - (states << 5)) >> 32; // (state * 480) >> 32, as Probes.Bit
        Vector512<ulong> picked = Avx512F.PermuteVar8x64(Vector512.Load(words), bits >> 6);
        Vector512<ulong> probed = Avx512F.ShiftRightLogicalVariable(picked, bits & Vector512.Create(63UL)) | unusedLanes;
        return (probed & Vector512<ulong>.One) == Vector512<ulong>.One;
    }

    private static Vector256<uint> StepPowers()
    {
        Span<uint> powers = stackalloc uint[MaxK];
        uint power = 1;
        for (int i = 0; i < MaxK; i++)
        {
            powers[i] = power;
            power *= Probes.Step;
        }

        return Vector256.Create<uint>(powers);
    }
}
