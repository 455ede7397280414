using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace EventFilter.Hashing;

// The long-input (> 240 bytes) path: eight 64-bit accumulators fed 64-byte stripes,
// scrambled after every 1024-byte block. Scalar on purpose: stream names are short,
// so this path is rare and simplicity wins over SIMD here.
public static partial class XxHash3
{
    private const int StripeLength = 64;
    private const int SecretConsumeRate = 8;  // secret advances 8 bytes per stripe
    private const int StripesPerBlock = (SecretSize - StripeLength) / SecretConsumeRate; // 16
    private const int BlockLength = StripeLength * StripesPerBlock; // 1024
    private const int SecretLastAccStart = 7;
    private const int SecretMergeAccsStart = 11;

    [MethodImpl(MethodImplOptions.NoInlining)]
    [SkipLocalsInit] // the custom secret below is fully written before it is read
    private static ulong HashLong(ref byte input, uint length, ulong seed)
    {
        if (seed == 0)
        {
            return HashLongWithSecret(ref input, length, ref MemoryMarshal.GetReference(DefaultSecret));
        }

        // A seeded long hash uses a secret derived from the default one: in each 16-byte
        // pair, the seed is added to the first half and subtracted from the second.
        Span<byte> customSecret = stackalloc byte[SecretSize];
        ref byte source = ref MemoryMarshal.GetReference(DefaultSecret);
        ref byte target = ref MemoryMarshal.GetReference(customSecret);
        for (uint i = 0; i < SecretSize; i += 16)
        {
            WriteLE64(ref target, i, ReadLE64(ref source, i) + seed);
            WriteLE64(ref target, i + 8, ReadLE64(ref source, i + 8) - seed);
        }

        return HashLongWithSecret(ref input, length, ref target);
    }

    [SkipLocalsInit] // every accumulator is assigned below
    private static ulong HashLongWithSecret(ref byte input, uint length, ref byte secret)
    {
        Span<ulong> accumulators = stackalloc ulong[8];
        ref ulong acc = ref MemoryMarshal.GetReference(accumulators);
        acc = Prime32_3;
        Unsafe.Add(ref acc, 1) = Prime64_1;
        Unsafe.Add(ref acc, 2) = Prime64_2;
        Unsafe.Add(ref acc, 3) = Prime64_3;
        Unsafe.Add(ref acc, 4) = Prime64_4;
        Unsafe.Add(ref acc, 5) = Prime32_2;
        Unsafe.Add(ref acc, 6) = Prime64_5;
        Unsafe.Add(ref acc, 7) = Prime32_1;

        // (length - 1) so that an exact multiple of the block length leaves its last block
        // to the tail code below, which must always see at least one byte.
        uint blocks = (length - 1) / BlockLength;
        for (uint n = 0; n < blocks; n++)
        {
            Accumulate(ref acc, ref Unsafe.Add(ref input, n * BlockLength), ref secret, StripesPerBlock);
            ScrambleAccumulators(ref acc, ref Unsafe.Add(ref secret, SecretSize - StripeLength));
        }

        // Whole stripes of the last, partial block...
        uint tailStart = blocks * BlockLength;
        uint stripes = (length - 1 - tailStart) / StripeLength;
        Accumulate(ref acc, ref Unsafe.Add(ref input, tailStart), ref secret, stripes);

        // ...then the final 64 bytes (overlapping what came before) with a fixed secret slice.
        Accumulate512(
            ref acc,
            ref Unsafe.Add(ref input, length - StripeLength),
            ref Unsafe.Add(ref secret, SecretSize - StripeLength - SecretLastAccStart));

        return MergeAccumulators(ref acc, ref Unsafe.Add(ref secret, SecretMergeAccsStart), length * Prime64_1);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Accumulate(ref ulong acc, ref byte input, ref byte secret, uint stripes)
    {
        for (uint n = 0; n < stripes; n++)
        {
            Accumulate512(ref acc, ref Unsafe.Add(ref input, n * StripeLength), ref Unsafe.Add(ref secret, n * SecretConsumeRate));
        }
    }

    /// <summary>Folds one 64-byte stripe into the accumulators (XXH3_accumulate_512).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Accumulate512(ref ulong acc, ref byte input, ref byte secret)
    {
        for (uint i = 0; i < 8; i++)
        {
            ulong data = ReadLE64(ref input, i * 8);
            ulong keyed = data ^ ReadLE64(ref secret, i * 8);

            // The raw data goes to the neighbouring lane so that no input is lost
            // when the 32x32 product below is zero.
            Unsafe.Add(ref acc, i ^ 1) += data;
            Unsafe.Add(ref acc, i) += (ulong)(uint)keyed * (keyed >> 32);
        }
    }

    /// <summary>Per-block scramble so the high bits feed back into the low bits.</summary>
    private static void ScrambleAccumulators(ref ulong acc, ref byte secret)
    {
        for (uint i = 0; i < 8; i++)
        {
            ref ulong a = ref Unsafe.Add(ref acc, i);
            ulong value = a ^ (a >> 47) ^ ReadLE64(ref secret, i * 8);
            a = value * Prime32_1;
        }
    }

    private static ulong MergeAccumulators(ref ulong acc, ref byte secret, ulong start)
    {
        ulong result = start;
        for (uint i = 0; i < 4; i++)
        {
            result += MultiplyFold(
                Unsafe.Add(ref acc, 2 * i) ^ ReadLE64(ref secret, 16 * i),
                Unsafe.Add(ref acc, (2 * i) + 1) ^ ReadLE64(ref secret, (16 * i) + 8));
        }

        return Avalanche(result);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void WriteLE64(ref byte destination, nuint offset, ulong value)
    {
        if (!BitConverter.IsLittleEndian)
        {
            value = BinaryPrimitives.ReverseEndianness(value);
        }

        Unsafe.WriteUnaligned(ref Unsafe.Add(ref destination, offset), value);
    }
}
