using EventFilter.Format;

namespace EventFilter.Tests.Format;

public sealed class LineChecksumTests
{
    [Fact]
    public void A_zero_line_has_checksum_zero()
    {
        Assert.Equal(0u, LineChecksum.Compute(new byte[64]));
    }

    [Fact]
    public void Matches_a_bitwise_crc32c_with_zero_init_and_no_final_xor()
    {
        var random = new Random(7);
        var line = new byte[64];
        for (int round = 0; round < 100; round++)
        {
            random.NextBytes(line);
            Assert.Equal(ReferenceCrc32C(line.AsSpan(0, 60)), LineChecksum.Compute(line));
        }
    }

    [Fact]
    public void Setting_a_bit_changes_the_checksum_by_that_bits_table_value()
    {
        var random = new Random(11);
        var line = new byte[64];
        random.NextBytes(line.AsSpan(0, 60));
        for (uint bit = 0; bit < 480; bit += 7)
        {
            line[bit >> 3] &= (byte)~(1 << (int)(bit & 7));
            uint before = LineChecksum.Compute(line);
            line[bit >> 3] |= (byte)(1 << (int)(bit & 7));
            Assert.Equal(before ^ LineChecksum.OfBit(bit), LineChecksum.Compute(line));
        }
    }

    /// <summary>An independent, bit-at-a-time CRC-32C (reflected polynomial 0x82F63B78), as a verifier would write it.</summary>
    private static uint ReferenceCrc32C(ReadOnlySpan<byte> data)
    {
        uint crc = 0;
        foreach (byte b in data)
        {
            crc ^= b;
            for (int i = 0; i < 8; i++)
            {
                crc = (crc & 1) != 0 ? (crc >> 1) ^ 0x82F63B78u : crc >> 1;
            }
        }

        return crc;
    }
}
