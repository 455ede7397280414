using System.Buffers;
using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;
using System.Runtime.Intrinsics;
using System.Text;

namespace EventFilter.Hashing;

/// <summary>
/// Turns a stream name into the one 64-bit hash that places it in the filter: XXH3-64 (System.IO.Hashing) of its UTF-8 bytes.
/// A name given as UTF-16 is encoded into a stack buffer first, so the string and UTF-8 forms agree byte for byte,
/// non-ASCII included, and nothing is allocated. See docs/file-format.md, section "Keys".
/// </summary>
internal static class KeyHasher
{
    /// <summary>Names up to this many UTF-16 chars encode on the stack (3 UTF-8 bytes per char at most).</summary>
    private const int StackChars = 256;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Hash(ReadOnlySpan<byte> utf8Name, ulong seed) => System.IO.Hashing.XxHash3.HashToUInt64(utf8Name, unchecked((long)seed));

    /// <summary>ASCII names up to this many chars narrow straight into a small stack buffer: the common case.</summary>
    private const int AsciiChars = 128;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static ulong Hash(ReadOnlySpan<char> name, ulong seed)
    {
        // Stream names are nearly always ASCII, whose UTF-8 is one byte per char: narrowing is several times cheaper
        // than the general encoder, and the result is the same bytes.
        if (name.Length <= AsciiChars)
        {
            Span<byte> ascii = stackalloc byte[AsciiChars];
            if (TryNarrowAscii(name, ascii))
            {
                return Hash(ascii[..name.Length], seed);
            }
        }

        return HashEncoded(name, seed);
    }

    /// <summary>
    /// Copies each char's low byte to <paramref name="ascii"/> (at least as long as <paramref name="name"/>); true
    /// when every char was ASCII, so the copy is the name's UTF-8. Inline and branch-light on purpose: with
    /// <c>Ascii.FromUtf16</c> a lookup cost 2.4 times a UTF-8 one in cache, and out of cache the extra instructions
    /// left fewer lookups in flight at once (docs/benchmarks.md, "Findings for the core").
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool TryNarrowAscii(ReadOnlySpan<char> name, Span<byte> ascii)
    {
        ref ushort from = ref Unsafe.As<char, ushort>(ref MemoryMarshal.GetReference(name));
        ref byte to = ref MemoryMarshal.GetReference(ascii);
        int length = name.Length;
        if (length < 16)
        {
            int seen = 0;
            for (int i = 0; i < length; i++)
            {
                ushort c = Unsafe.Add(ref from, i);
                seen |= c;
                Unsafe.Add(ref to, i) = (byte)c;
            }

            return seen < 0x80;
        }

        // 16 chars a step; the last step overlaps the one before it rather than running a scalar tail.
        Vector128<ushort> bits = Vector128<ushort>.Zero;
        for (int i = 0; ; i += 16)
        {
            int at = Math.Min(i, length - 16);
            Vector128<ushort> low = Vector128.LoadUnsafe(ref from, (nuint)at);
            Vector128<ushort> high = Vector128.LoadUnsafe(ref from, (nuint)at + 8);
            bits |= low | high;
            Vector128.Narrow(low, high).StoreUnsafe(ref to, (nuint)at);
            if (at == length - 16)
            {
                return (bits & Vector128.Create((ushort)0xFF80)) == Vector128<ushort>.Zero;
            }
        }
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
