using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Blocked;

/// <summary>
/// Tests up to 16 probes of a key against its line in one AVX-512 pass: the probe states from one multiply by the
/// powers of <see cref="Probes.Step"/>, the bit positions by fastrange, the line's words picked by a permute and each
/// probed bit shifted down. Up to 8 probes go in 64-bit lanes, where fastrange is a plain multiply-shift; 9 to 16 in
/// 32-bit lanes, which need an exact fastrange of their own (<see cref="Bits"/>) and a few more instructions. The same
/// bits as <see cref="Probes"/> in a loop, with a fraction of the instructions and no chain of dependent multiplies;
/// lookups are bound by those instructions, in cache and in the batch paths.
/// </summary>
internal static unsafe class VectorProbes
{
    /// <summary>The largest k the 64-bit lanes take.</summary>
    public const int NarrowMaxK = 8;

    /// <summary>The largest k the vector pass takes; a larger k uses the scalar loop.</summary>
    public const int MaxK = 16;

    public static bool IsSupported => Avx512F.IsSupported;

    /// <summary>Step^0 .. Step^15 (mod 2^32): lane i holds the multiplier that takes a key's first state to its i-th.</summary>
    private static readonly Vector512<uint> Powers = StepPowers();

    /// <summary>Step^0 .. Step^7, for the 64-bit lanes.</summary>
    private static readonly Vector256<uint> NarrowPowers = Powers.GetLower();

    /// <summary>0 .. 15: lane i of the 32-bit pass holds probe i.</summary>
    private static readonly Vector512<uint> LaneIndex = Vector512.Create(0u, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);

    /// <summary>What <see cref="AllSet(ulong*, uint, Vector512{ulong})"/> needs for <paramref name="k"/> (at most 8) probes: lanes k..7 read as set.</summary>
    public static Vector512<ulong> NarrowUnusedLanes(int k)
    {
        Span<ulong> lanes = stackalloc ulong[NarrowMaxK];
        for (int i = 0; i < NarrowMaxK; i++)
        {
            lanes[i] = i < k ? 0UL : 1UL;
        }

        return Vector512.Create<ulong>(lanes);
    }

    /// <summary>True when every probed bit (k at most 8) of the line at <paramref name="words"/> is set; only where <see cref="IsSupported"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, Vector512<ulong> unusedLanes)
    {
        Vector512<ulong> states = Avx512F.ConvertToVector512UInt64(Vector256.Create(state) * NarrowPowers);
        Vector512<ulong> bits = ((states << 9) - (states << 5)) >> 32; // (state * 480) >> 32, as Probes.Bit
        Vector512<ulong> picked = Avx512F.PermuteVar8x64(Vector512.Load(words), bits >> 6);
        Vector512<ulong> probed = Avx512F.ShiftRightLogicalVariable(picked, bits & Vector512.Create(63UL)) | unusedLanes;
        return (probed & Vector512<ulong>.One) == Vector512<ulong>.One;
    }

    /// <summary>True when every probed bit (k of 9 to 16) of the line at <paramref name="words"/> is set; only where <see cref="IsSupported"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, int k)
    {
        Vector512<uint> bits = Bits(Vector512.Create(state) * Powers);
        Vector512<uint> picked = Avx512F.PermuteVar16x32(Vector512.Load((uint*)words), bits >> 5);
        Vector512<uint> probed = Avx512F.ShiftRightLogicalVariable(picked, bits & Vector512.Create(31u));
        Vector512<uint> unused = Vector512.GreaterThanOrEqual(LaneIndex, Vector512.Create((uint)k)); // lanes k..15 read as set
        return ((probed | unused) & Vector512<uint>.One) == Vector512<uint>.One;
    }

    /// <summary>
    /// <see cref="Probes.Bit"/>, (state × 480) &gt;&gt; 32, exactly, in 32-bit lanes that have no high multiply: 480 is
    /// 15 × 32, so the bit is (state × 15) &gt;&gt; 27; with state = h × 2^16 + l that is (15h + ((15l) &gt;&gt; 16)) &gt;&gt; 11,
    /// whose products stay below 2^20 (the low half's remainder is below 2^16 and cannot carry into bit 27).
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static Vector512<uint> Bits(Vector512<uint> states)
    {
        Vector512<uint> high = states >> 16;
        Vector512<uint> low = states & Vector512.Create(0xFFFFu);
        Vector512<uint> fifteenLow = (low << 4) - low;
        return (((high << 4) - high) + (fifteenLow >> 16)) >> 11;
    }

    private static Vector512<uint> StepPowers()
    {
        Span<uint> powers = stackalloc uint[MaxK];
        uint power = 1;
        for (int i = 0; i < MaxK; i++)
        {
            powers[i] = power;
            power *= Probes.Step;
        }

        return Vector512.Create<uint>(powers);
    }
}
