using System.Globalization;
using System.Runtime.CompilerServices;
using System.Text;
using EventFilter.Hashing;
using XxHash3 = System.IO.Hashing.XxHash3;

namespace EventFilter.Tests.Hashing;

/// <summary>
/// The format guard for the key hash: every filter file ever written placed its names by XXH3-64, so these pinned
/// values (known answers, a sweep of lengths 0-300 under five seeds, and the worked example of docs/file-format.md)
/// must hold for the hash the filter uses now, System.IO.Hashing's. They were computed by the project's own XXH3
/// before it was replaced by the library; a change in any of them would make existing files answer wrongly.
/// </summary>
public sealed class KeyHashFormatTests
{
    [Fact]
    public void A_sweep_of_lengths_0_to_300_under_five_seeds_hashes_as_pinned_through_the_filter_and_the_library()
    {
        byte[] data = Pattern(300);
        int checkedCount = 0;
        foreach (string line in File.ReadLines(Path.Combine(AppContext.BaseDirectory, "Hashing", "xxh3-sweep.txt")))
        {
            string[] fields = line.Split(' ');
            int length = int.Parse(fields[0], CultureInfo.InvariantCulture);
            long seed = long.Parse(fields[1], CultureInfo.InvariantCulture);
            ulong expected = ulong.Parse(fields[2], NumberStyles.HexNumber, CultureInfo.InvariantCulture);
            ReadOnlySpan<byte> input = data.AsSpan(0, length);
            Assert.Equal(expected, XxHash3.HashToUInt64(input, seed));
            Assert.Equal(expected, KeyHasher.Hash(input, unchecked((ulong)seed)));
            checkedCount++;
        }

        Assert.Equal(301 * 5, checkedCount);
    }

    [Fact]
    public void The_worked_example_of_the_file_format_holds()
    {
        // docs/file-format.md, "Keys" and "Probes".
        Assert.Equal(0x79CCA5910B9ACE3CUL, KeyHasher.Hash("order-42"u8, 0));
        Assert.Equal(0x79CCA5910B9ACE3CUL, KeyHasher.Hash("order-42".AsSpan(), 0));
        Assert.Equal(KeyHasher.Hash(Encoding.UTF8.GetBytes("naïve-ストリーム"), 9), KeyHasher.Hash("naïve-ストリーム".AsSpan(), 9));
    }

    // Lengths cover every branch: 0, 1-3, 4-8, 9-16, 17-128 (each nesting level), 129-240,
    // and the long path (partial stripes, exact and off-by-one block multiples, several blocks).
    // Seeds: 0 (default secret), a large positive seed and a negative one (custom secret on the long path).
    [Theory]
    [InlineData(0)]
    [InlineData(1)]
    [InlineData(60)]
    [InlineData(127)]
    [InlineData(128)]
    [InlineData(129)]
    [InlineData(256)]
    [InlineData(257)]
    [InlineData(3000)]
    public void The_string_form_hashes_as_its_UTF8_bytes_on_both_sides_of_the_ASCII_fast_path(int length)
    {
        // Pins the fast path's limits: ASCII up to 128 chars is narrowed; anything longer, or not ASCII, is encoded.
        string ascii = new string('a', length) + "\u007F";
        string nonAscii = new string('b', Math.Max(0, length - 1)) + "é";
        foreach (string name in new[] { ascii, nonAscii, ascii[..length] })
        {
            Assert.Equal(KeyHasher.Hash(Encoding.UTF8.GetBytes(name), 3), KeyHasher.Hash(name.AsSpan(), 3));
        }
    }

    [Fact]
    public void The_string_form_of_random_ASCII_names_hashes_as_the_library_at_lengths_0_to_300_under_the_five_seeds()
    {
        // The string form hashes ASCII chars in registers with its own XXH3 for lengths up to 128; every length
        // and branch (0, 1-3, 4-8, 9-16, 17-32, 33-64, 65-96, 97-128, and the library beyond) against the library.
        long[] seeds = [.. File.ReadLines(Path.Combine(AppContext.BaseDirectory, "Hashing", "xxh3-sweep.txt"))
            .Select(line => long.Parse(line.Split(' ')[1], CultureInfo.InvariantCulture)).Distinct()];
        Assert.Equal(5, seeds.Length);
        var random = new Random(12345);
        for (int length = 0; length <= 300; length++)
        {
            for (int round = 0; round < 8; round++)
            {
                char[] chars = new char[length];
                for (int i = 0; i < length; i++)
                {
                    chars[i] = (char)random.Next(0, 0x80);
                }

                byte[] utf8 = Encoding.UTF8.GetBytes(chars);
                foreach (long seed in seeds)
                {
                    Assert.Equal(XxHash3.HashToUInt64(utf8, seed), KeyHasher.Hash(chars, unchecked((ulong)seed)));
                }
            }
        }
    }

    [Fact]
    public void The_string_form_agrees_with_UTF8_at_every_length_and_finds_a_non_ASCII_char_at_every_position()
    {
        // The ASCII check ORs the chars each XXH3 read takes in; those reads overlap and come from both ends, so a
        // non-ASCII char must send the name to the encoder wherever it sits, in a lane, an overlap or a short path.
        for (int length = 0; length <= 130; length++)
        {
            char[] chars = Enumerable.Range(0, length).Select(i => (char)('!' + (i * 7 % 90))).ToArray();
            Assert.Equal(KeyHasher.Hash(Encoding.UTF8.GetBytes(chars), 5), KeyHasher.Hash(chars, 5));
            for (int at = 0; at < length; at++)
            {
                foreach (char odd in "\u0080\u00E9\u0100\u7FFF\uFF41")
                {
                    char[] mixed = (char[])chars.Clone();
                    mixed[at] = odd;
                    Assert.Equal(KeyHasher.Hash(Encoding.UTF8.GetBytes(mixed), 5), KeyHasher.Hash(mixed, 5));
                }
            }
        }
    }

    [Theory]
    [InlineData(0, 0L, 0x2D06800538D394C2UL)]
    [InlineData(1, 0L, 0x4C5CCA45D0F4811FUL)]
    [InlineData(2, 0L, 0xA7E250C97710FF27UL)]
    [InlineData(3, 0L, 0x15F7093B173D005CUL)]
    [InlineData(4, 0L, 0xDCA012F95811B6B9UL)]
    [InlineData(5, 0L, 0xB290CAFC7B254345UL)]
    [InlineData(8, 0L, 0xDEC6A9A43575982EUL)]
    [InlineData(9, 0L, 0xCBE393399F17FFBDUL)]
    [InlineData(15, 0L, 0x545E19990471DC37UL)]
    [InlineData(16, 0L, 0x7E484C18D74895D0UL)]
    [InlineData(17, 0L, 0x208BDE5EE2BED407UL)]
    [InlineData(60, 0L, 0x5B53AF902B44D30EUL)]
    [InlineData(64, 0L, 0xDD30702AB46B3745UL)]
    [InlineData(127, 0L, 0xA915ED6396DB8CC0UL)]
    [InlineData(128, 0L, 0xF92B70EAA21A6288UL)]
    [InlineData(129, 0L, 0xF8F76713F2BB60FAUL)]
    [InlineData(200, 0L, 0x12FDB864685F344DUL)]
    [InlineData(240, 0L, 0xCCC7375172C41F03UL)]
    [InlineData(241, 0L, 0x0B3B630948CE4A00UL)]
    [InlineData(255, 0L, 0x89932170686CDD9AUL)]
    [InlineData(256, 0L, 0xEC85B75BAFE6CA74UL)]
    [InlineData(1023, 0L, 0xF0D330CE2B3300FBUL)]
    [InlineData(1024, 0L, 0x23BC880EBF0D29C6UL)]
    [InlineData(1025, 0L, 0xC09FDFBC398C7D82UL)]
    [InlineData(4096, 0L, 0xA3C19F8174CDE0BBUL)]
    [InlineData(10000, 0L, 0x441F01D9711BEBEDUL)]
    [InlineData(0, 0x2C5E3F1A9B7D4E60L, 0x6BD6AB56A9EF223FUL)]
    [InlineData(1, 0x2C5E3F1A9B7D4E60L, 0xB67D09F1B4733CFDUL)]
    [InlineData(2, 0x2C5E3F1A9B7D4E60L, 0x7AD234B500C96474UL)]
    [InlineData(3, 0x2C5E3F1A9B7D4E60L, 0x8E49188603FC77A4UL)]
    [InlineData(4, 0x2C5E3F1A9B7D4E60L, 0xFDDBADFA5118F59BUL)]
    [InlineData(5, 0x2C5E3F1A9B7D4E60L, 0x0663C45C342FE895UL)]
    [InlineData(8, 0x2C5E3F1A9B7D4E60L, 0x7689764377BE5F0FUL)]
    [InlineData(9, 0x2C5E3F1A9B7D4E60L, 0x629D2EF93F6BD9F5UL)]
    [InlineData(15, 0x2C5E3F1A9B7D4E60L, 0xC6A847900A62916CUL)]
    [InlineData(16, 0x2C5E3F1A9B7D4E60L, 0xBB821976EA5048ECUL)]
    [InlineData(17, 0x2C5E3F1A9B7D4E60L, 0x6EE39B1B3D5AC60AUL)]
    [InlineData(60, 0x2C5E3F1A9B7D4E60L, 0xCD16D26964CF5DD5UL)]
    [InlineData(64, 0x2C5E3F1A9B7D4E60L, 0xCC2CDFB063956C8EUL)]
    [InlineData(127, 0x2C5E3F1A9B7D4E60L, 0x9BFE438CD8B40347UL)]
    [InlineData(128, 0x2C5E3F1A9B7D4E60L, 0x2F8D04591DD71ACDUL)]
    [InlineData(129, 0x2C5E3F1A9B7D4E60L, 0x5FCD6EF01D7250D8UL)]
    [InlineData(200, 0x2C5E3F1A9B7D4E60L, 0x944406C8B2C63F7EUL)]
    [InlineData(240, 0x2C5E3F1A9B7D4E60L, 0xD48CD5539656CA62UL)]
    [InlineData(241, 0x2C5E3F1A9B7D4E60L, 0x16B2F03DCF459A3AUL)]
    [InlineData(255, 0x2C5E3F1A9B7D4E60L, 0xCB40BEA2D970CC6EUL)]
    [InlineData(256, 0x2C5E3F1A9B7D4E60L, 0x568481D1DD97F1A3UL)]
    [InlineData(1023, 0x2C5E3F1A9B7D4E60L, 0x5C5974C147859FB4UL)]
    [InlineData(1024, 0x2C5E3F1A9B7D4E60L, 0x49B3917C1B0C16B5UL)]
    [InlineData(1025, 0x2C5E3F1A9B7D4E60L, 0x8AE26E65A6716BEFUL)]
    [InlineData(4096, 0x2C5E3F1A9B7D4E60L, 0x39B34747ECB732D2UL)]
    [InlineData(10000, 0x2C5E3F1A9B7D4E60L, 0xDB3668A87B135274UL)]
    [InlineData(0, -7L, 0x098C452A82E89E99UL)]
    [InlineData(1, -7L, 0x15D797B283821D64UL)]
    [InlineData(2, -7L, 0xB9ABF53F5425DC1EUL)]
    [InlineData(3, -7L, 0x06BA8520124C948AUL)]
    [InlineData(4, -7L, 0xE3931213B0CA9958UL)]
    [InlineData(5, -7L, 0x2A1CD50EE4AFCF07UL)]
    [InlineData(8, -7L, 0xBB753A57AA82E43AUL)]
    [InlineData(9, -7L, 0x4A76050EE850FD5FUL)]
    [InlineData(15, -7L, 0x7B19F5B631B07A42UL)]
    [InlineData(16, -7L, 0x9E1EF7BC0382B8DAUL)]
    [InlineData(17, -7L, 0x54F9C561C263E35FUL)]
    [InlineData(60, -7L, 0x58B333CBBF26209FUL)]
    [InlineData(64, -7L, 0x4090F8D2ABE37A6BUL)]
    [InlineData(127, -7L, 0xC30E67CFAB2FB70AUL)]
    [InlineData(128, -7L, 0x7D1E35A8EC8DEFF8UL)]
    [InlineData(129, -7L, 0x2FD965D970640ED3UL)]
    [InlineData(200, -7L, 0x2C88DB6EB4A0F6EFUL)]
    [InlineData(240, -7L, 0x4A49B826E9B5203CUL)]
    [InlineData(241, -7L, 0xA88F039C8A173D01UL)]
    [InlineData(255, -7L, 0x8AE0EBC7B5D1C59CUL)]
    [InlineData(256, -7L, 0x5E1214FCE5FF0337UL)]
    [InlineData(1023, -7L, 0x8F33F70CE8B17815UL)]
    [InlineData(1024, -7L, 0xB9AC0175ABD81853UL)]
    [InlineData(1025, -7L, 0x17AA5962BAF7207AUL)]
    [InlineData(4096, -7L, 0x4EFE5A3E6DA70D15UL)]
    [InlineData(10000, -7L, 0x84F551C2CE0E888EUL)]
    public void Known_answers_hold(int length, long seed, ulong expected)
    {
        byte[] data = Pattern(length);

        Assert.Equal(expected, XxHash3.HashToUInt64(data, seed));
    }

    [Fact]
    public void Default_seed_is_zero()
    {
        byte[] data = Pattern(300);

        Assert.Equal(XxHash3.HashToUInt64(data, 0), XxHash3.HashToUInt64(data));
    }

    [Fact]
    public void Hash_depends_only_on_the_span_contents_not_its_position()
    {
        byte[] data = Pattern(2000);
        byte[] shifted = new byte[data.Length + 3];
        data.CopyTo(shifted, 3);

        foreach (int length in new[] { 7, 60, 200, 2000 })
        {
            Assert.Equal(
                XxHash3.HashToUInt64(data.AsSpan(0, length), 5),
                XxHash3.HashToUInt64(shifted.AsSpan(3, length), 5));
        }
    }

    [Fact]
    public void Hashing_does_not_allocate()
    {
        byte[][] inputs = [Pattern(0), Pattern(3), Pattern(8), Pattern(16), Pattern(60), Pattern(200), Pattern(5000)];
        ulong sink = 0;

        Assert.Equal(0, SteadyAllocations.Of(() => sink += HashAll(inputs, 1000)));
        Assert.NotEqual(0UL, sink); // keep the work observable
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static ulong HashAll(byte[][] inputs, int rounds)
    {
        ulong sink = 0;
        for (int i = 0; i < rounds; i++)
        {
            foreach (byte[] input in inputs)
            {
                sink += XxHash3.HashToUInt64(input);
                sink += XxHash3.HashToUInt64(input, -i - 1);
            }
        }

        return sink;
    }

    private static byte[] Pattern(int length)
    {
        byte[] data = new byte[length];
        for (int i = 0; i < data.Length; i++)
        {
            data[i] = (byte)((i * 31) + 7);
        }

        return data;
    }
}
