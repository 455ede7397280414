using System.Runtime.Intrinsics;
using EventFilter.Blocked;
using EventFilter.Format;

namespace EventFilter.Tests.Blocked;

/// <summary>
/// The AVX-512 probe test must answer exactly as the documented probe sequence (docs/file-format.md, "Probes"):
/// a "definitely not" where the sequence's bits are all set would be a false negative.
/// </summary>
public sealed unsafe class VectorProbesTests
{
    [Avx512Fact]
    public void Every_k_up_to_16_answers_as_the_probe_sequence_on_lines_from_empty_to_nearly_full()
    {
        var random = new Random(480);
        ulong* words = stackalloc ulong[8];
        int agreedAllSet = 0, agreedNotSet = 0;
        for (int round = 0; round < 20_000; round++)
        {
            // Fill ratios across the range, so both answers come up for every k.
            double fill = random.NextDouble();
            for (int w = 0; w < 8; w++)
            {
                ulong word = 0;
                for (int b = 0; b < 64; b++)
                {
                    word |= random.NextDouble() < fill ? 1UL << b : 0;
                }

                words[w] = word;
            }

            uint state = (uint)random.NextInt64(0, 1L << 32);
            for (int k = 1; k <= VectorProbes.MaxK; k++)
            {
                bool expected = ScalarAllSet(words, state, k);
                Assert.Equal(expected, VectorAllSet(words, state, k));
                if (expected)
                {
                    agreedAllSet++;
                }
                else
                {
                    agreedNotSet++;
                }
            }
        }

        Assert.True(agreedAllSet > 10_000 && agreedNotSet > 10_000, $"{agreedAllSet} all-set, {agreedNotSet} not");
    }

    [Avx512Fact]
    public void A_key_whose_bits_are_the_only_ones_set_is_found_and_each_missing_bit_is_noticed()
    {
        ulong* words = stackalloc ulong[8];
        var random = new Random(7);
        for (int round = 0; round < 2_000; round++)
        {
            uint state = (uint)random.NextInt64(0, 1L << 32);
            for (int k = 1; k <= VectorProbes.MaxK; k++)
            {
                uint[] bits = BitsOf(state, k);
                new Span<ulong>(words, 8).Clear();
                foreach (uint bit in bits)
                {
                    words[bit >> 6] |= 1UL << (int)bit;
                }

                Assert.True(VectorAllSet(words, state, k));
                foreach (uint bit in bits)
                {
                    words[bit >> 6] &= ~(1UL << (int)bit);
                    Assert.False(VectorAllSet(words, state, k));
                    words[bit >> 6] |= 1UL << (int)bit;
                }
            }
        }
    }

    /// <summary>What BloomLines calls for k probes: 64-bit lanes up to 8, 32-bit lanes from 9 to 16.</summary>
    private static bool VectorAllSet(ulong* words, uint state, int k) => k <= VectorProbes.NarrowMaxK
        ? VectorProbes.AllSet(words, state, VectorProbes.NarrowUnusedLanes(k))
        : VectorProbes.AllSet(words, state, k);

    [Avx512Fact]
    public void The_lane_bit_formula_is_fastrange_onto_480_for_every_32_bit_state()
    {
        // The vector pass has no 32-bit high multiply and computes each bit another way (VectorProbes.Bits): a mismatch
        // for any state would probe a bit an add never set, a false negative. All 2^32 states, 16 at a time, against
        // (state * 480) >> 32 in 64-bit lanes; split over the cores.
        long mismatches = 0;
        Vector512<uint> lanes = Vector512.Create(0u, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15);
        Parallel.For(0, 256, block =>
        {
            long found = 0;
            for (uint low = 0; low < (1u << 24); low += 16)
            {
                Vector512<uint> states = Vector512.Create(((uint)block << 24) | low) + lanes;
                Vector512<uint> bits = VectorProbes.Bits(states);
                (Vector512<ulong> lower, Vector512<ulong> upper) = Vector512.Widen(states);
                Vector512<uint> expected = Vector512.Narrow((lower * 480) >> 32, (upper * 480) >> 32);
                found += Vector512.EqualsAll(bits, expected) ? 0 : 1;
            }

            Interlocked.Add(ref mismatches, found);
        });
        Assert.Equal(0, mismatches);
    }

    [Fact]
    public void The_128_bit_lane_bit_formula_is_fastrange_onto_480_for_every_32_bit_state()
    {
        // The same formula in the 128-bit pass (ARM64, x86 without AVX2), checked on every machine, 4 states at a time.
        long mismatches = 0;
        Vector128<uint> lanes = Vector128.Create(0u, 1, 2, 3);
        Parallel.For(0, 256, block =>
        {
            long found = 0;
            for (uint low = 0; low < (1u << 24); low += 4)
            {
                Vector128<uint> states = Vector128.Create(((uint)block << 24) | low) + lanes;
                (Vector128<ulong> lower, Vector128<ulong> upper) = Vector128.Widen(states);
                Vector128<uint> expected = Vector128.Narrow((lower * 480) >> 32, (upper * 480) >> 32);
                found += Vector128.EqualsAll(Vector128Probes.Bits(states), expected) ? 0 : 1;
            }

            Interlocked.Add(ref mismatches, found);
        });
        Assert.Equal(0, mismatches);
    }

    private static uint[] BitsOf(uint state, int k)
    {
        uint[] bits = new uint[k];
        for (int i = 0; i < k; i++)
        {
            bits[i] = (uint)(((ulong)state * FilterGeometry.BitsPerLine) >> 32);
            state *= 0x9E3779B9;
        }

        return bits;
    }

    private static bool ScalarAllSet(ulong* words, uint state, int k) =>
        BitsOf(state, k).All(bit => (words[bit >> 6] & (1UL << (int)bit)) != 0);
}

/// <summary>A test of the AVX-512 path, reported as skipped (with the reason) where the processor has none.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class Avx512FactAttribute : FactAttribute
{
    public Avx512FactAttribute()
    {
        if (!VectorProbes.IsSupported)
        {
            Skip = "no AVX-512 here: lookups use the scalar probes, which every other filter test covers";
        }
    }
}
