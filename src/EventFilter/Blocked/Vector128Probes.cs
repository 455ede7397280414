using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.Arm;

namespace EventFilter.Blocked;

/// <summary>
/// The probe test for processors with 128-bit vectors only (ARM64's AdvSimd; see <see cref="IsSupported"/>), written with the
/// cross-platform <see cref="Vector128"/> operations alone. Up to 16 probes are tested byte-wise, one per byte lane:
/// bit b of a line is bit (b &amp; 7) of byte (b &gt;&gt; 3), so each probe's byte is picked from the line's four
/// 16-byte quarters by a table shuffle (a single TBL on ARM64, a PSHUFB on x86) and its bit by another shuffle of the
/// 8 one-bit masks. No lane needs a variable shift, which the portable API does not have. The same bits as
/// <see cref="Probes"/> in a loop.
/// </summary>
internal static unsafe class Vector128Probes
{
    /// <summary>The largest k the pass takes; a larger k uses the scalar loop.</summary>
    public const int MaxK = 16;

    /// <summary>Probe states per 128-bit register of 32-bit lanes.</summary>
    private const int Lanes = 4;

    /// <summary>
    /// ARM64, or a process that asked for this pass. On x86 without AVX2 the shuffles cost more than the scalar loop
    /// (a lookup in cache took 49 ns against the loop's 32-36 on an AMD EPYC), so the loop runs there unless
    /// EVENTFILTER_PROBES=vector128 is set: how tests and benchmarks run ARM64's pass, and check its bits, on x86.
    /// </summary>
    public static bool IsSupported => Vector128.IsHardwareAccelerated && (AdvSimd.Arm64.IsSupported || Requested);

    /// <summary>Read once: a static readonly is a constant to the optimised code, so the check costs a lookup nothing.</summary>
    private static readonly bool Requested = Environment.GetEnvironmentVariable("EVENTFILTER_PROBES") == "vector128";

    /// <summary>Step^0 .. Step^15 (mod 2^32), four to a register.</summary>
    private static readonly Vector128<uint> Powers0 = Powers(0), Powers1 = Powers(4), Powers2 = Powers(8), Powers3 = Powers(12);

    /// <summary>Byte i holds 1 &lt;&lt; (i mod 8): the mask of bit i within its byte, picked by the bit's low 3 bits.</summary>
    private static readonly Vector128<byte> BitMasks = Vector128.Create((byte)1, 2, 4, 8, 16, 32, 64, 128, 1, 2, 4, 8, 16, 32, 64, 128);

    /// <summary>What <see cref="AllSet(ulong*, uint, Vector128{byte}, bool)"/> needs for <paramref name="k"/> probes: all ones in byte lanes 0..k-1, zero above.</summary>
    public static Vector128<byte> UsedLanes(int k)
    {
        Span<byte> lanes = stackalloc byte[Vector128<byte>.Count];
        for (int i = 0; i < lanes.Length; i++)
        {
            lanes[i] = i < k ? byte.MaxValue : (byte)0;
        }

        return Vector128.Create<byte>(lanes);
    }

    /// <summary>True when every probed bit (k at most 16, <paramref name="usedLanes"/> from <see cref="UsedLanes"/>) of the line is set.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, Vector128<byte> usedLanes, bool wide)
    {
        Vector128<uint> seed = Vector128.Create(state);
        Vector128<ushort> first = Vector128.Narrow(Bits(seed * Powers0), Bits(seed * Powers1)); // bits below 480 fit 16
        Vector128<ushort> second = wide ? Vector128.Narrow(Bits(seed * Powers2), Bits(seed * Powers3)) : first;
        Vector128<byte> bytes = Vector128.Narrow(first >> 3, second >> 3); // 0..59
        Vector128<byte> masks = Vector128.Shuffle(BitMasks, Vector128.Narrow(first & Vector128.Create((ushort)7), second & Vector128.Create((ushort)7))) & usedLanes;

        // A shuffle gives zero for an index of 16 or more, and the byte subtraction wraps indices below a quarter's
        // start to 240 and above: each probe's byte comes from its own quarter only.
        byte* line = (byte*)words;
        Vector128<byte> quarter = Vector128.Create((byte)16);
        Vector128<byte> picked = Vector128.Shuffle(Vector128.Load(line), bytes)
            | Vector128.Shuffle(Vector128.Load(line + 16), bytes - quarter)
            | Vector128.Shuffle(Vector128.Load(line + 32), bytes - (quarter + quarter))
            | Vector128.Shuffle(Vector128.Load(line + 48), bytes - (quarter + quarter + quarter));
        return Vector128.EqualsAll(picked & masks, masks);
    }

    /// <summary>The pass for any <paramref name="k"/> up to 16, its used lanes found on the way: for a spread key's slots.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool AllSet(ulong* words, uint state, int k)
    {
        Vector128<byte> laneIndex = Vector128.Create((byte)0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        return AllSet(words, state, Vector128.LessThan(laneIndex, Vector128.Create((byte)k)), k > 8);
    }

    /// <summary>
    /// <see cref="Probes.Bit"/>, (state × 480) &gt;&gt; 32, in 32-bit lanes without a high multiply: as
    /// <see cref="VectorProbes.Bits"/>, (15h + ((15l) &gt;&gt; 16)) &gt;&gt; 11 for the state's 16-bit halves h and l.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static Vector128<uint> Bits(Vector128<uint> states)
    {
        Vector128<uint> high = states >> 16;
        Vector128<uint> low = states & Vector128.Create(0xFFFFu);
        Vector128<uint> fifteenLow = (low << 4) - low;
        return (((high << 4) - high) + (fifteenLow >> 16)) >> 11;
    }

    private static Vector128<uint> Powers(int first)
    {
        uint power = 1;
        for (int i = 0; i < first; i++)
        {
            power *= Probes.Step;
        }

        Span<uint> powers = stackalloc uint[Lanes];
        for (int i = 0; i < Lanes; i++)
        {
            powers[i] = power;
            power *= Probes.Step;
        }

        return Vector128.Create<uint>(powers);
    }
}
