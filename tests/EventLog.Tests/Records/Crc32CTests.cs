using System.Text;
using EventLog.Records;

namespace EventLog.Tests.Records;

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
}
