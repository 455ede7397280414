using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Text;

namespace EventFilter.Hashing;

/// <summary>
/// Turns a stream name into the one 64-bit hash that places it in the filter: XXH3-64 (System.IO.Hashing) of its UTF-8 bytes.
/// A name given as UTF-16 hashes as its UTF-8 too, so the string and UTF-8 forms agree byte for byte: an ASCII one
/// straight from its chars (<see cref="AsciiXxHash3"/>), any other encoded into a stack buffer first. Nothing is
/// allocated. See docs/file-format.md, section "Keys".
/// </summary>
internal static class KeyHasher
{
    /// <summary>Names up to this many UTF-16 chars encode on the stack (3 UTF-8 bytes per char at most).</summary>
    private const int StackChars = 256;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Hash(ReadOnlySpan<byte> utf8Name, ulong seed) => System.IO.Hashing.XxHash3.HashToUInt64(utf8Name, unchecked((long)seed));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Hash(ReadOnlySpan<char> name, ulong seed)
    {
        // Stream names are nearly always ASCII, whose UTF-8 is one byte per char: hashing the chars' low bytes in
        // registers is several times cheaper than encoding, and gives the same value (AsciiXxHash3 says why it is
        // not a narrowing into a buffer). It narrows with 128-bit vectors: where those are the runtime's software
        // fallback (no SIMD, or DOTNET_EnableHWIntrinsic=0) encoding first is cheaper (an in-cache string lookup went
        // from 34.8 to 15.2 chases there; docs/benchmarks-instruction-sets.md). Both conditions are JIT constants.
        if (BitConverter.IsLittleEndian && Vector128.IsHardwareAccelerated && name.Length <= AsciiXxHash3.MaxChars && AsciiXxHash3.TryHash(name, seed, out ulong hash))
        {
            return hash;
        }

        return HashEncoded(name, seed);
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ulong HashEncoded(ReadOnlySpan<char> name, ulong seed)
    {
        if (name.Length > StackChars)
        {
            return HashLongName(name, seed);
        }

        Span<byte> utf8 = stackalloc byte[StackChars * 3];
        int length = Encoding.UTF8.GetBytes(name, utf8);
        return Hash(utf8[..length], seed);
    }

    // Long names are rare; a pooled buffer keeps them allocation-free after the pool warms up.
    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ulong HashLongName(ReadOnlySpan<char> name, ulong seed)
    {
        byte[] rented = ArrayPool<byte>.Shared.Rent(Encoding.UTF8.GetMaxByteCount(name.Length));
        try
        {
            int length = Encoding.UTF8.GetBytes(name, rented);
            return Hash(rented.AsSpan(0, length), seed);
        }
        finally
        {
            ArrayPool<byte>.Shared.Return(rented);
        }
    }
}
