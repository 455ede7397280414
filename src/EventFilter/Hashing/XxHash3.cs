using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace EventFilter.Hashing;

/// <summary>
/// The 64-bit XXH3 hash (xxHash, by Yann Collet), implemented here because the
/// System.IO.Hashing package is not available to this project.
/// </summary>
/// <remarks>
/// Bit-compatible with <c>XXH3_64bits_withSeed</c> from the reference implementation and
/// therefore with <c>System.IO.Hashing.XxHash3.HashToUInt64(source, seed)</c>, for every
/// input length and seed. It never allocates: the default secret lives in the assembly's
/// data section and the seeded long-input secret is built on the stack.
/// </remarks>
public static partial class XxHash3
{
    // Primes from the xxHash specification.
    private const ulong Prime32_1 = 0x9E3779B1UL;
    private const ulong Prime32_2 = 0x85EBCA77UL;
    private const ulong Prime32_3 = 0xC2B2AE3DUL;
    private const ulong Prime64_1 = 0x9E3779B185EBCA87UL;
    private const ulong Prime64_2 = 0xC2B2AE3D27D4EB4FUL;
    private const ulong Prime64_3 = 0x165667B19E3779F9UL;
    private const ulong Prime64_4 = 0x85EBCA77C2B2AE63UL;
    private const ulong Prime64_5 = 0x27D4EB2F165667C5UL;
    private const ulong PrimeMx1 = 0x165667919E3779F9UL;
    private const ulong PrimeMx2 = 0x9FB21C651E98DF25UL;

    private const int SecretSize = 192;
    private const int MidSizeMax = 240;

    /// <summary>The 192-byte default secret (kSecret) from the specification.</summary>
    /// <remarks>A span over a constant array literal: the compiler emits it as static data, no allocation.</remarks>
    private static ReadOnlySpan<byte> DefaultSecret =>
    [
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
        0xea, 0xc5, 0xac, 0x83, 0x34, 0xd3, 0xeb, 0xc3, 0xc5, 0x81, 0xa0, 0xff, 0xfa, 0x13, 0x63, 0xeb,
        0x17, 0x0d, 0xdd, 0x51, 0xb7, 0xf0, 0xda, 0x49, 0xd3, 0x16, 0x55, 0x26, 0x29, 0xd4, 0x68, 0x9e,
        0x2b, 0x16, 0xbe, 0x58, 0x7d, 0x47, 0xa1, 0xfc, 0x8f, 0xf8, 0xb8, 0xd1, 0x7a, 0xd0, 0x31, 0xce,
        0x45, 0xcb, 0x3a, 0x8f, 0x95, 0x16, 0x04, 0x28, 0xaf, 0xd7, 0xfb, 0xca, 0xbb, 0x4b, 0x40, 0x7e,
    ];

    /// <summary>Computes the XXH3 64-bit hash of <paramref name="source"/>.</summary>
    /// <param name="source">The data to hash.</param>
    /// <param name="seed">The seed; 0 gives the unseeded XXH3_64bits value.</param>
    /// <returns>The same value as <c>XXH3_64bits_withSeed(source, length, (ulong)seed)</c>.</returns>
    public static ulong HashToUInt64(ReadOnlySpan<byte> source, long seed = 0)
    {
        uint length = (uint)source.Length;
        ulong s = (ulong)seed;
        ref byte input = ref MemoryMarshal.GetReference(source);
        ref byte secret = ref MemoryMarshal.GetReference(DefaultSecret);

        if (length <= 16)
        {
            return HashLength0To16(ref input, length, ref secret, s);
        }

        if (length <= 128)
        {
            return HashLength17To128(ref input, length, ref secret, s);
        }

        return length <= MidSizeMax
            ? HashLength129To240(ref input, length, ref secret, s)
            : HashLong(ref input, length, s);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong HashLength0To16(ref byte input, uint length, ref byte secret, ulong seed)
    {
        if (length > 8)
        {
            return HashLength9To16(ref input, length, ref secret, seed);
        }

        if (length >= 4)
        {
            return HashLength4To8(ref input, length, ref secret, seed);
        }

        if (length > 0)
        {
            return HashLength1To3(ref input, length, ref secret, seed);
        }

        // Empty input: only the seed and a fixed slice of the secret contribute.
        return XxH64Avalanche(seed ^ ReadLE64(ref secret, 56) ^ ReadLE64(ref secret, 64));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong HashLength1To3(ref byte input, uint length, ref byte secret, ulong seed)
    {
        // First, middle and last byte plus the length packed into 32 bits; for 1 byte all three coincide.
        uint c1 = input;
        uint c2 = Unsafe.Add(ref input, length >> 1);
        uint c3 = Unsafe.Add(ref input, length - 1);
        uint combined = (c1 << 16) | (c2 << 24) | c3 | (length << 8);
        ulong bitflip = (ReadLE32(ref secret, 0) ^ ReadLE32(ref secret, 4)) + seed;
        return XxH64Avalanche(combined ^ bitflip);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong HashLength4To8(ref byte input, uint length, ref byte secret, ulong seed)
    {
        // The spec mixes the byte-swapped low half of the seed into its high half here.
        seed ^= (ulong)BinaryPrimitives.ReverseEndianness((uint)seed) << 32;
        ulong first = ReadLE32(ref input, 0);
        ulong last = ReadLE32(ref input, length - 4); // overlaps `first` when length < 8
        ulong bitflip = (ReadLE64(ref secret, 8) ^ ReadLE64(ref secret, 16)) - seed;
        ulong keyed = (last + (first << 32)) ^ bitflip;
        return RrMxMx(keyed, length);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong HashLength9To16(ref byte input, uint length, ref byte secret, ulong seed)
    {
        ulong bitflip1 = (ReadLE64(ref secret, 24) ^ ReadLE64(ref secret, 32)) + seed;
        ulong bitflip2 = (ReadLE64(ref secret, 40) ^ ReadLE64(ref secret, 48)) - seed;
        ulong low = ReadLE64(ref input, 0) ^ bitflip1;
        ulong high = ReadLE64(ref input, length - 8) ^ bitflip2; // overlapping read covers the tail
        ulong acc = length + BinaryPrimitives.ReverseEndianness(low) + high + MultiplyFold(low, high);
        return Avalanche(acc);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong HashLength17To128(ref byte input, uint length, ref byte secret, ulong seed)
    {
        // Pairs of 16-byte lanes taken from both ends, working inwards, so every byte is covered.
        ulong acc = length * Prime64_1;
        if (length > 32)
        {
            if (length > 64)
            {
                if (length > 96)
                {
                    acc += Mix16(ref input, 48, ref secret, 96, seed);
                    acc += Mix16(ref input, length - 64, ref secret, 112, seed);
                }

                acc += Mix16(ref input, 32, ref secret, 64, seed);
                acc += Mix16(ref input, length - 48, ref secret, 80, seed);
            }

            acc += Mix16(ref input, 16, ref secret, 32, seed);
            acc += Mix16(ref input, length - 32, ref secret, 48, seed);
        }

        acc += Mix16(ref input, 0, ref secret, 0, seed);
        acc += Mix16(ref input, length - 16, ref secret, 16, seed);
        return Avalanche(acc);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong HashLength129To240(ref byte input, uint length, ref byte secret, ulong seed)
    {
        const uint StartOffset = 3; // secret offset for rounds 8 and up
        const uint LastOffset = 17; // the final lane uses secret[136 - 17 ..]

        // Unrolled by hand (the JIT does not unroll loops): the first 128 bytes, lane by lane.
        ulong acc = length * Prime64_1;
        acc += Mix16(ref input, 0, ref secret, 0, seed);
        acc += Mix16(ref input, 16, ref secret, 16, seed);
        acc += Mix16(ref input, 32, ref secret, 32, seed);
        acc += Mix16(ref input, 48, ref secret, 48, seed);
        acc += Mix16(ref input, 64, ref secret, 64, seed);
        acc += Mix16(ref input, 80, ref secret, 80, seed);
        acc += Mix16(ref input, 96, ref secret, 96, seed);
        acc += Mix16(ref input, 112, ref secret, 112, seed);

        // The first 128 bytes are avalanched on their own; the rest re-use the secret from a shifted start.
        acc = Avalanche(acc);
        uint rounds = length / 16;
        for (uint i = 8; i < rounds; i++)
        {
            acc += Mix16(ref input, 16 * i, ref secret, (16 * (i - 8)) + StartOffset, seed);
        }

        acc += Mix16(ref input, length - 16, ref secret, 136 - LastOffset, seed);
        return Avalanche(acc);
    }

    /// <summary>Mixes 16 input bytes with 16 secret bytes (XXH3_mix16B).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix16(ref byte input, uint inputOffset, ref byte secret, uint secretOffset, ulong seed)
    {
        ulong low = ReadLE64(ref input, inputOffset) ^ (ReadLE64(ref secret, secretOffset) + seed);
        ulong high = ReadLE64(ref input, inputOffset + 8) ^ (ReadLE64(ref secret, secretOffset + 8) - seed);
        return MultiplyFold(low, high);
    }

    /// <summary>Full 64x64->128 multiply, folded to 64 bits by XOR of the halves.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MultiplyFold(ulong left, ulong right)
    {
        ulong high = Math.BigMul(left, right, out ulong low);
        return low ^ high;
    }

    /// <summary>XXH3's final mixer, cheaper than XXH64's; enough because the inputs are already multiplied.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Avalanche(ulong h)
    {
        h ^= h >> 37;
        h *= PrimeMx1;
        return h ^ (h >> 32);
    }

    /// <summary>XXH64's avalanche, used by the 0..3 byte paths where there was no multiply yet.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong XxH64Avalanche(ulong h)
    {
        h ^= h >> 33;
        h *= Prime64_2;
        h ^= h >> 29;
        h *= Prime64_3;
        return h ^ (h >> 32);
    }

    /// <summary>The stronger mixer for 4..8 bytes, which folds the length in (XXH3_rrmxmx).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong RrMxMx(ulong h, uint length)
    {
        h ^= ulong.RotateLeft(h, 49) ^ ulong.RotateLeft(h, 24);
        h *= PrimeMx2;
        h ^= (h >> 35) + length;
        h *= PrimeMx2;
        return h ^ (h >> 28);
    }

    // Unaligned little-endian reads; the endianness test is a JIT-time constant.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong ReadLE64(ref byte source, nuint offset)
    {
        ulong value = Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref source, offset));
        return BitConverter.IsLittleEndian ? value : BinaryPrimitives.ReverseEndianness(value);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint ReadLE32(ref byte source, nuint offset)
    {
        uint value = Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref source, offset));
        return BitConverter.IsLittleEndian ? value : BinaryPrimitives.ReverseEndianness(value);
    }
}
