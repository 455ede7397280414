using System.Buffers.Binary;
using System.Numerics;

namespace EventLog.Index;

/// <summary>
/// The 64-bit hash of a stream name's UTF-8 bytes that keys the index and feeds each index file's Bloom filter
/// (<c>FilterFile.AddHash</c>: the high half picks the line, the low half the probes, so both halves are fully mixed).
/// Stable across runs and machines, because it is stored on disk. Two names with one hash are told apart by reading
/// the log record the entry points to.
/// </summary>
/// <remarks>
/// Why not the core's XXH3: it is internal to EventFilter and reachable only through a <c>FilterFile</c> instance,
/// while the index needs a hash even when per-file filters are off. This is an xxHash64-style round per 8 bytes and
/// the MurmurHash3 64-bit finaliser, enough for uniformly spread keys; it is not a defence against chosen collisions,
/// which cost only extra log reads, never a wrong answer.
/// </remarks>
internal static class StreamHash
{
    private const ulong Prime1 = 0x9E3779B97F4A7C15;
    private const ulong Prime2 = 0xC2B2AE3D27D4EB4F;

    /// <summary>Hashes a name's UTF-8 bytes.</summary>
    public static ulong Of(ReadOnlySpan<byte> utf8Name)
    {
        ulong hash = unchecked((ulong)utf8Name.Length * Prime1);
        while (utf8Name.Length >= sizeof(ulong))
        {
            hash = Round(hash, BinaryPrimitives.ReadUInt64LittleEndian(utf8Name));
            utf8Name = utf8Name[sizeof(ulong)..];
        }

        if (!utf8Name.IsEmpty)
        {
            ulong tail = 0;
            for (int i = utf8Name.Length - 1; i >= 0; i--)
            {
                tail = (tail << 8) | utf8Name[i];
            }

            hash = Round(hash, tail);
        }

        return Avalanche(hash);
    }

    private static ulong Round(ulong hash, ulong word) => unchecked(BitOperations.RotateLeft(hash ^ (word * Prime2), 31) * Prime1);

    private static ulong Avalanche(ulong hash)
    {
        unchecked
        {
            hash ^= hash >> 33;
            hash *= 0xFF51AFD7ED558CCD;
            hash ^= hash >> 33;
            hash *= 0xC4CEB9FE1A85EC53;
            hash ^= hash >> 33;
            return hash;
        }
    }
}
