using System.Buffers.Binary;
using System.Numerics;

namespace EventFilter.Benchmarks.Peers;

/// <summary>
/// The classic peer's hashing, shaped like EventStoreDB's (written here from the published algorithm descriptions,
/// not from their code): four 32-bit passes over the key, two of xxHash32 and two of MurmurHash3 (x86, 32-bit),
/// combined into two 64-bit values for double hashing. Contrast: EventFilter makes one XXH3-64 pass.
/// </summary>
public static class ClassicHashes
{

    /// <summary>The two 64-bit values probe i combines as <c>first + i * second</c>.</summary>
    public static (ulong First, ulong Second) Compute(ReadOnlySpan<byte> key)
    {
        ulong first = ((ulong)XxHash32(key, 0) << 32) | Murmur3(key, 0);
        ulong second = ((ulong)XxHash32(key, 0x9747B28C) << 32) | Murmur3(key, 0x9747B28C);
        return (first, second);
    }

    /// <summary>xxHash32, from System.IO.Hashing.</summary>
    public static uint XxHash32(ReadOnlySpan<byte> data, uint seed) => System.IO.Hashing.XxHash32.HashToUInt32(data, unchecked((int)seed));

    public static uint Murmur3(ReadOnlySpan<byte> data, uint seed)
    {
        const uint c1 = 0xCC9E2D51, c2 = 0x1B873593;
        uint h = seed;
        int offset = 0;
        for (; offset <= data.Length - 4; offset += 4)
        {
            h ^= MurmurScramble(BinaryPrimitives.ReadUInt32LittleEndian(data[offset..]), c1, c2);
            h = (BitOperations.RotateLeft(h, 13) * 5) + 0xE6546B64;
        }

        uint tail = 0;
        for (int i = data.Length - 1; i >= offset; i--)
        {
            tail = (tail << 8) | data[i];
        }

        if (offset < data.Length)
        {
            h ^= MurmurScramble(tail, c1, c2);
        }

        h ^= (uint)data.Length;
        h ^= h >> 16;
        h *= 0x85EBCA6B;
        h ^= h >> 13;
        h *= 0xC2B2AE35;
        return h ^ (h >> 16);
    }

    private static uint MurmurScramble(uint k, uint c1, uint c2) => BitOperations.RotateLeft(k * c1, 15) * c2;
}
