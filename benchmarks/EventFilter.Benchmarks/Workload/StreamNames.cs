using System.Text;

namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// A pool of distinct 60-character ASCII stream names, shaped like real ones with a hash in them:
/// <c>orders-0000-0001a2b3-7f3c…</c> (category, generation, index, then hex digits of a per-name hash).
/// Each name is held three ways, generated up front so no benchmark measures key generation:
/// as a string, as its own UTF-8 byte[], and packed back to back with a lengths array (the batch form).
/// Pools with different categories never share a name, which is how misses are kept disjoint from hits.
/// </summary>
public sealed unsafe class StreamNames
{
    /// <summary>Every name is this many characters (and UTF-8 bytes).</summary>
    public const int NameLength = 60;

    /// <summary>Names per pool: a whole pool is one benchmark invocation, so results are ns per name.</summary>
    public const int PoolSize = 1 << 20;

    // Layout: [0,6) category, 6 '-', [7,11) generation, 11 '-', [12,20) index, 20 '-', [21,60) hash digits.
    private const int GenerationAt = 7;

    public StreamNames(string category, int count = PoolSize)
    {
        if (category.Length != 6)
        {
            throw new ArgumentException("Categories are 6 characters, so every name is 60.", nameof(category));
        }

        Strings = new string[count];
        Utf8 = new byte[count][];
        Packed = new byte[(long)count * NameLength];
        Lengths = new int[count];
        Span<char> name = stackalloc char[NameLength];
        for (int i = 0; i < count; i++)
        {
            Format(category, i, name);
            Strings[i] = new string(name);
            Utf8[i] = Encoding.ASCII.GetBytes(Strings[i]);
            Utf8[i].CopyTo(Packed.AsSpan(i * NameLength));
            Lengths[i] = NameLength;
        }
    }

    public static StreamNames Hits() => new("orders");

    public static StreamNames Misses() => new("ledger");

    public static StreamNames Fresh() => new("signup");

    public string[] Strings { get; }

    public byte[][] Utf8 { get; }

    public byte[] Packed { get; }

    public int[] Lengths { get; }

    public int Count => Strings.Length;

    /// <summary>
    /// Rewrites the generation digits of every name in place, in all three forms, so that an add benchmark gets a
    /// pool of names the filter has never seen without allocating or hashing anything new.
    /// The strings were created by this class and are not interned, so writing into them is safe here.
    /// </summary>
    public void SetGeneration(int generation)
    {
        Span<char> digits = stackalloc char[4];
        WriteHex((ulong)generation, digits);
        for (int i = 0; i < Count; i++)
        {
            fixed (char* text = Strings[i])
            {
                digits.CopyTo(new Span<char>(text + GenerationAt, 4));
            }

            for (int d = 0; d < 4; d++)
            {
                Utf8[i][GenerationAt + d] = (byte)digits[d];
                Packed[((long)i * NameLength) + GenerationAt + d] = (byte)digits[d];
            }
        }
    }

    /// <summary>Writes name <paramref name="index"/> of <paramref name="category"/> (generation 0) into 60 chars.</summary>
    public static void Format(string category, int index, Span<char> name)
    {
        category.AsSpan().CopyTo(name);
        name[6] = name[11] = name[20] = '-';
        WriteHex(0, name.Slice(GenerationAt, 4));
        WriteHex((ulong)index, name.Slice(12, 8));
        // string.GetHashCode is randomised per process; the names must be the same in every process.
        ulong seed = (ulong)index;
        foreach (char c in category)
        {
            seed = (seed * 31) + c + ((ulong)c << 40);
        }

        var hash = new SplitMix64(seed);
        for (int at = 21; at < NameLength; at += 16)
        {
            int digits = Math.Min(16, NameLength - at);
            WriteHex(hash.Next(), name.Slice(at, digits));
        }
    }

    /// <summary>The low 4*destination.Length bits of <paramref name="value"/> as lower-case hex.</summary>
    private static void WriteHex(ulong value, Span<char> destination)
    {
        for (int i = destination.Length - 1; i >= 0; i--)
        {
            destination[i] = "0123456789abcdef"[(int)(value & 0xF)];
            value >>= 4;
        }
    }
}
