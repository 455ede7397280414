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
    private const uint XxPrime1 = 2654435761U;
    private const uint XxPrime2 = 2246822519U;
    private const uint XxPrime3 = 3266489917U;
    private const uint XxPrime4 = 668265263U;
    private const uint XxPrime5 = 374761393U;

    /// <summary>The two 64-bit values probe i combines as <c>first + i * second</c>.</summary>
    public static (ulong First, ulong Second) Compute(ReadOnlySpan<byte> key)
    {
        ulong first = ((ulong)XxHash32(key, 0) << 32) | Murmur3(key, 0);
        ulong second = ((ulong)XxHash32(key, 0x9747B28C) << 32) | Murmur3(key, 0x9747B28C);
        return (first, second);
    }

    public static uint XxHash32(ReadOnlySpan<byte> data, uint seed)
    {
        int offset = 0;
        uint acc;
        if (data.Length >= 16)
        {
            uint v1 = seed + XxPrime1 + XxPrime2, v2 = seed + XxPrime2, v3 = seed, v4 = seed - XxPrime1;
            for (; offset <= data.Length - 16; offset += 16)
            {
                v1 = XxRound(v1, BinaryPrimitives.ReadUInt32LittleEndian(data[offset..]));
                v2 = XxRound(v2, BinaryPrimitives.ReadUInt32LittleEndian(data[(offset + 4)..]));
                v3 = XxRound(v3, BinaryPrimitives.ReadUInt32LittleEndian(data[(offset + 8)..]));
                v4 = XxRound(v4, BinaryPrimitives.ReadUInt32LittleEndian(data[(offset + 12)..]));
            }

            acc = BitOperations.RotateLeft(v1, 1) + BitOperations.RotateLeft(v2, 7) + BitOperations.RotateLeft(v3, 12) + BitOperations.RotateLeft(v4, 18);
        }
        else
        {
            acc = seed + XxPrime5;
        }

        acc += (uint)data.Length;
        for (; offset <= data.Length - 4; offset += 4)
        {
            acc = BitOperations.RotateLeft(acc + (BinaryPrimitives.ReadUInt32LittleEndian(data[offset..]) * XxPrime3), 17) * XxPrime4;
        }

        for (; offset < data.Length; offset++)
        {
            acc = BitOperations.RotateLeft(acc + (data[offset] * XxPrime5), 11) * XxPrime1;
        }

        acc ^= acc >> 15;
        acc *= XxPrime2;
        acc ^= acc >> 13;
        acc *= XxPrime3;
        return acc ^ (acc >> 16);
    }

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

    private static uint XxRound(uint acc, uint lane) => BitOperations.RotateLeft(acc + (lane * XxPrime2), 13) * XxPrime1;

    private static uint MurmurScramble(uint k, uint c1, uint c2) => BitOperations.RotateLeft(k * c1, 15) * c2;
}
