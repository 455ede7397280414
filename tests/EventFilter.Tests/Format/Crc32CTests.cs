using EventFilter.Format;
using System.Text;

namespace EventFilter.Tests.Format;

public sealed class Crc32CTests
{
    [Fact]
    public void Check_value_of_the_standard_input_is_E3069283() =>
        Assert.Equal(0xE3069283u, Crc32C.Compute(Encoding.ASCII.GetBytes("123456789")));

    [Fact]
    public void Incremental_checksum_equals_one_pass()
    {
        byte[] data = new byte[1000];
        new Random(7).NextBytes(data);
        uint running = Crc32C.Append(Crc32C.Append(Crc32C.Seed, data.AsSpan(0, 333)), data.AsSpan(333));
        Assert.Equal(Crc32C.Compute(data), Crc32C.Finish(running));
    }

    [Fact]
    public void The_line_checksum_is_this_crc_run_from_zero_without_the_final_xor()
    {
        var line = new byte[64];
        new Random(60).NextBytes(line);
        Assert.Equal(Crc32C.Append(0, line.AsSpan(0, 60)), LineChecksum.Compute(line));
    }
}
