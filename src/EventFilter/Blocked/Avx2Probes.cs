using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Blocked;

/// <summary>
/// The probe test of <see cref="VectorProbes"/> for x86 processors with AVX2 but no AVX-512: 8 probes in the 32-bit
/// lanes of one 256-bit register (two registers for 9 to 16). A 256-bit permute reaches only 8 of the line's 16
/// words, so each half of the line is permuted by the same indices and bit 3 of the word index picks between them.
/// Fastrange onto 480 is exact here through the 32 x 32 -> 64-bit multiply of the even lanes (and of the odd lanes
/// moved down), whose high halves are (state x 480) &gt;&gt; 32. The same bits as <see cref="Probes"/> in a loop.
/// </summary>
internal static unsafe class Avx2Probes
{
    /// <summary>The largest k the pass takes; a larger k uses the scalar loop.</summary>
    public const int MaxK = 16;

    /// <summary>Probes in one register.</summary>
    private const int Lanes = 8;

    public static bool IsSupported => Avx2.IsSupported;

    /// <summary>Step^0 .. Step^7 (mod 2^32).</summary>
    private static readonly Vector256<uint> LowPowers = Powers(0);

    /// <summary>Step^8 .. Step^15, for the second register of k above 8.</summary>
    private static readonly Vector256<uint> HighPowers = Powers(Lanes);

    /// <summary>
    /// The lanes of the last register that read as set for <paramref name="k"/> probes: lanes k..7 for k up to 8,
    /// lanes k - 8 .. 7 of the second register above.
    /// </summary>
    public static Vector256<uint> UnusedLanes(int k)
    {
        int used = k <= Lanes ? k : k - Lanes;
        Span<uint> lanes = stackalloc uint[Lanes];
        for (int i = 0; i < Lanes; i++)
        {
            lanes[i] = i < used ? 0u : uint.MaxValue;
        }

        return Vector256.Create<uint>(lanes);
    }

    /// <summary>True when every probed bit (k at most 8) of the line at <paramref name="words"/> is set; only where <see cref="IsSupported"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, Vector256<uint> unusedLanes)
    {
        Vector256<uint> low = Vector256.Load((uint*)words), high = Vector256.Load((uint*)words + Lanes);
        Vector256<uint> probed = Probed(low, high, Vector256.Create(state) * LowPowers) | unusedLanes;
        return (probed & Vector256<uint>.One) == Vector256<uint>.One;
    }

    /// <summary>True when every probed bit (k of 9 to 16) is set; <paramref name="unusedHighLanes"/> from <see cref="UnusedLanes"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSetWide(ulong* words, uint state, Vector256<uint> unusedHighLanes)
    {
        Vector256<uint> low = Vector256.Load((uint*)words), high = Vector256.Load((uint*)words + Lanes);
        Vector256<uint> first = Vector256.Create(state) * LowPowers;
        Vector256<uint> second = Vector256.Create(state) * HighPowers;
        Vector256<uint> probed = Probed(low, high, first) & (Probed(low, high, second) | unusedHighLanes);
        return (probed & Vector256<uint>.One) == Vector256<uint>.One;
    }

    /// <summary>Either pass for any <paramref name="k"/> up to 16, its unused lanes found on the way: for a spread key's slots.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, int k)
    {
        Vector256<uint> laneIndex = Vector256.Create(0u, 1, 2, 3, 4, 5, 6, 7);
        Vector256<uint> unused = Vector256.GreaterThanOrEqual(laneIndex, Vector256.Create((uint)(k <= Lanes ? k : k - Lanes)));
        return k <= Lanes ? AllSet(words, state, unused) : AllSetWide(words, state, unused);
    }

    /// <summary>The probed bit of each lane's state, in bit 0 of the lane (the other bits are what lay above it).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static Vector256<uint> Probed(Vector256<uint> low, Vector256<uint> high, Vector256<uint> states)
    {
        Vector256<uint> bits = Bits(states);
        Vector256<uint> word = bits >> 5; // 0..14; the permute reads only its low 3 bits
        Vector256<float> fromLow = Avx2.PermuteVar8x32(low, word).AsSingle();
        Vector256<float> fromHigh = Avx2.PermuteVar8x32(high, word).AsSingle();
        Vector256<uint> picked = Avx.BlendVariable(fromLow, fromHigh, (word << 28).AsSingle()).AsUInt32(); // the sign bit picks
        return Avx2.ShiftRightLogicalVariable(picked, bits & Vector256.Create(31u));
    }

    /// <summary><see cref="Probes.Bit"/> of each lane: the high half of state x 480, from two widening multiplies.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static Vector256<uint> Bits(Vector256<uint> states)
    {
        Vector256<uint> bitsPerLine = Vector256.Create((uint)Format.FilterGeometry.BitsPerLine);
        Vector256<ulong> even = Avx2.Multiply(states, bitsPerLine);
        Vector256<ulong> odd = Avx2.Multiply((states.AsUInt64() >> 32).AsUInt32(), bitsPerLine);
        return Avx2.Blend((even >> 32).AsUInt32(), odd.AsUInt32(), 0b1010_1010); // odd lanes: the high halves in place
    }

    private static Vector256<uint> Powers(int first)
    {
        Span<uint> powers = stackalloc uint[Lanes];
        uint power = 1;
        for (int i = 0; i < first + Lanes; i++)
        {
            if (i >= first)
            {
                powers[i - first] = power;
            }

            power *= Probes.Step;
        }

        return Vector256.Create<uint>(powers);
    }
}
