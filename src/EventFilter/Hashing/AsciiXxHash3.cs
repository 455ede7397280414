using System.Buffers.Binary;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;

namespace EventFilter.Hashing;

/// <summary>
/// XXH3-64 (with seed) of a UTF-16 name's low bytes, read straight from its chars: for an ASCII name, the same value
/// System.IO.Hashing gives for its UTF-8 bytes. Names up to <see cref="MaxChars"/> chars only, the lengths XXH3 hashes
/// without its long-input loop.
/// </summary>
/// <remarks>
/// Why not narrow into a buffer and hash that with the library: XXH3 reads overlapping 8-byte words (for 60 bytes,
/// [24,32) and [28,36)), so some read always spans two of the narrowing's stores. Such a load cannot be forwarded
/// from the store queue; it waits until the stores retire, which is after the previous lookup's cache miss returns.
/// Out of cache that serialised consecutive lookups: a string lookup cost 2.3 times a UTF-8 one
/// (docs/decisions/ascii-xxhash3.md). Reading the chars into registers has no store to wait for. The value is pinned to the
/// library's by KeyHashFormatTests. Little-endian machines only (KeyHasher checks): the words are read in memory order.
/// </remarks>
internal static class AsciiXxHash3
{
    /// <summary>The longest name this hashes; longer ones go through the library.</summary>
    public const int MaxChars = 128;

    private const ulong Prime64_1 = 0x9E3779B185EBCA87UL;
    private const ulong Prime64_2 = 0xC2B2AE3D27D4EB4FUL;
    private const ulong Prime64_3 = 0x165667B19E3779F9UL;
    private const ulong PrimeMx1 = 0x165667919E3779F9UL;
    private const ulong PrimeMx2 = 0x9FB21C651E98DF25UL;

    /// <summary>The first 128 bytes of XXH3's default secret (kSecret), all that inputs up to 128 bytes use.</summary>
    private static ReadOnlySpan<byte> Secret =>
    [
        0xb8, 0xfe, 0x6c, 0x39, 0x23, 0xa4, 0x4b, 0xbe, 0x7c, 0x01, 0x81, 0x2c, 0xf7, 0x21, 0xad, 0x1c,
        0xde, 0xd4, 0x6d, 0xe9, 0x83, 0x90, 0x97, 0xdb, 0x72, 0x40, 0xa4, 0xa4, 0xb7, 0xb3, 0x67, 0x1f,
        0xcb, 0x79, 0xe6, 0x4e, 0xcc, 0xc0, 0xe5, 0x78, 0x82, 0x5a, 0xd0, 0x7d, 0xcc, 0xff, 0x72, 0x21,
        0xb8, 0x08, 0x46, 0x74, 0xf7, 0x43, 0x24, 0x8e, 0xe0, 0x35, 0x90, 0xe6, 0x81, 0x3a, 0x26, 0x4c,
        0x3c, 0x28, 0x52, 0xbb, 0x91, 0xc3, 0x00, 0xcb, 0x88, 0xd0, 0x65, 0x8b, 0x1b, 0x53, 0x2e, 0xa3,
        0x71, 0x64, 0x48, 0x97, 0xa2, 0x0d, 0xf9, 0x4e, 0x38, 0x19, 0xef, 0x46, 0xa9, 0xde, 0xac, 0xd8,
        0xa8, 0xfa, 0x76, 0x3f, 0xe3, 0x9c, 0x34, 0x3f, 0xf9, 0xdc, 0xbb, 0xc7, 0xc7, 0x0b, 0x4f, 0x1d,
        0x8a, 0x51, 0xe0, 0x4b, 0xcd, 0xb4, 0x59, 0x31, 0xc8, 0x9f, 0x7e, 0xc9, 0xd9, 0x78, 0x73, 0x64,
    ];

    /// <summary>
    /// Hashes <paramref name="name"/> (at most <see cref="MaxChars"/> chars); false, with no hash, when a char is
    /// not ASCII, whose UTF-8 is not its low byte.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static bool TryHash(ReadOnlySpan<char> name, ulong seed, out ulong hash)
    {
        ref ushort chars = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(name));
        uint length = (uint)name.Length;
        Vector128<ushort> seen;
        if (length > 16)
        {
            hash = Hash17To128(ref chars, length, seed, out seen);
        }
        else if (length > 8)
        {
            hash = Hash9To16(ref chars, length, seed, out seen);
        }
        else
        {
            return TryHashUpTo8(ref chars, length, seed, out hash);
        }

        return (seen & Vector128.Create((ushort)0xFF80)) == Vector128<ushort>.Zero;
    }

    private static bool TryHashUpTo8(ref ushort chars, uint length, ulong seed, out ulong hash)
    {
        if (length >= 4)
        {
            ulong first = Narrow4(ref chars, 0, out ulong firstChars);
            ulong last = Narrow4(ref chars, length - 4, out ulong lastChars);
            seed ^= (ulong)BinaryPrimitives.ReverseEndianness((uint)seed) << 32;
            ulong bitflip = (Read64(8) ^ Read64(16)) - seed;
            hash = RrMxMx((last + (first << 32)) ^ bitflip, length);
            return ((firstChars | lastChars) & 0xFF80_FF80_FF80_FF80UL) == 0;
        }

        if (length > 0)
        {
            // First, middle and last char; for one char all three are the same.
            uint c1 = chars, c2 = Unsafe.Add(ref chars, length >> 1), c3 = Unsafe.Add(ref chars, length - 1);
            uint combined = (c1 << 16) | (c2 << 24) | c3 | (length << 8);
            ulong bitflip = (Read32(0) ^ Read32(4)) + seed;
            hash = XxH64Avalanche(combined ^ bitflip);
            return (c1 | c2 | c3) < 0x80;
        }

        hash = XxH64Avalanche(seed ^ Read64(56) ^ Read64(64));
        return true;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Hash9To16(ref ushort chars, uint length, ulong seed, out Vector128<ushort> seen)
    {
        Vector128<ushort> front = Vector128.LoadUnsafe(ref chars);
        Vector128<ushort> back = Vector128.LoadUnsafe(ref chars, length - 8);
        seen = front | back;
        ulong low = Narrow8(front) ^ ((Read64(24) ^ Read64(32)) + seed);
        ulong high = Narrow8(back) ^ ((Read64(40) ^ Read64(48)) - seed);
        return Avalanche(length + BinaryPrimitives.ReverseEndianness(low) + high + MultiplyFold(low, high));
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Hash17To128(ref ushort chars, uint length, ulong seed, out Vector128<ushort> seen)
    {
        // 16-char lanes from both ends, working inwards; together they cover every char, so `seen` sees them all.
        seen = Vector128<ushort>.Zero;
        ulong acc = length * Prime64_1;
        if (length > 32)
        {
            if (length > 64)
            {
                if (length > 96)
                {
                    acc += Mix16(ref chars, 48, 96, seed, ref seen);
                    acc += Mix16(ref chars, length - 64, 112, seed, ref seen);
                }

                acc += Mix16(ref chars, 32, 64, seed, ref seen);
                acc += Mix16(ref chars, length - 48, 80, seed, ref seen);
            }

            acc += Mix16(ref chars, 16, 32, seed, ref seen);
            acc += Mix16(ref chars, length - 32, 48, seed, ref seen);
        }

        acc += Mix16(ref chars, 0, 0, seed, ref seen);
        acc += Mix16(ref chars, length - 16, 16, seed, ref seen);
        return Avalanche(acc);
    }

    /// <summary>XXH3's mix of 16 input bytes (here 16 chars narrowed in a register) with 16 secret bytes.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Mix16(ref ushort chars, uint at, int secretAt, ulong seed, ref Vector128<ushort> seen)
    {
        Vector128<ushort> low = Vector128.LoadUnsafe(ref chars, at);
        Vector128<ushort> high = Vector128.LoadUnsafe(ref chars, at + 8);
        seen |= low | high;
        Vector128<ulong> bytes = Vector128.Narrow(low, high).AsUInt64();
        return MultiplyFold(bytes.GetElement(0) ^ (Read64(secretAt) + seed), bytes.GetElement(1) ^ (Read64(secretAt + 8) - seed));
    }

    /// <summary>The low bytes of 8 chars as one little-endian word.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Narrow8(Vector128<ushort> chars) => Vector128.Narrow(chars, chars).AsUInt64().ToScalar();

    /// <summary>The low bytes of 4 chars from <paramref name="at"/> as one little-endian word; the chars themselves too.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Narrow4(ref ushort chars, uint at, out ulong raw)
    {
        raw = Unsafe.ReadUnaligned<ulong>(ref Unsafe.As<ushort, byte>(ref Unsafe.Add(ref chars, at)));
        Vector128<ushort> wide = Vector128.CreateScalarUnsafe(raw).AsUInt16();
        return Vector128.Narrow(wide, wide).AsUInt32().ToScalar();
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Read64(int at) => Unsafe.ReadUnaligned<ulong>(ref Unsafe.Add(ref MemoryMarshal.GetReference(Secret), at));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static uint Read32(int at) => Unsafe.ReadUnaligned<uint>(ref Unsafe.Add(ref MemoryMarshal.GetReference(Secret), at));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong MultiplyFold(ulong left, ulong right)
    {
        ulong high = Math.BigMul(left, right, out ulong low);
        return low ^ high;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong Avalanche(ulong h)
    {
        h ^= h >> 37;
        h *= PrimeMx1;
        return h ^ (h >> 32);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong XxH64Avalanche(ulong h)
    {
        h ^= h >> 33;
        h *= Prime64_2;
        h ^= h >> 29;
        h *= Prime64_3;
        return h ^ (h >> 32);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ulong RrMxMx(ulong h, uint length)
    {
        h ^= ulong.RotateLeft(h, 49) ^ ulong.RotateLeft(h, 24);
        h *= PrimeMx2;
        h ^= (h >> 35) + length;
        h *= PrimeMx2;
        return h ^ (h >> 28);
    }
}
