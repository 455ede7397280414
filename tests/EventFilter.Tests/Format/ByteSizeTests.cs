namespace EventFilter.Tests.Format;

public sealed class ByteSizeTests
{
    [Theory]
    [InlineData("0", 0L)]
    [InlineData("256000000", 256_000_000L)]
    [InlineData("512B", 512L)]
    [InlineData("10KB", 10_000L)]
    [InlineData("10k", 10_000L)]
    [InlineData("15MB", 15_000_000L)]
    [InlineData("15mb", 15_000_000L)]
    [InlineData("15M", 15_000_000L)]
    [InlineData("1.5GB", 1_500_000_000L)]
    [InlineData("2TB", 2_000_000_000_000L)]
    [InlineData("10KiB", 10_240L)]
    [InlineData("1MiB", 1_048_576L)]
    [InlineData("1gib", 1_073_741_824L)]
    [InlineData("1Gi", 1_073_741_824L)]
    [InlineData("1TiB", 1_099_511_627_776L)]
    [InlineData(" 64 MB ", 64_000_000L)]
    public void Sizes_parse_with_decimal_and_binary_units(string text, long expected)
    {
        Assert.True(ByteSize.TryParse(text, out long bytes));
        Assert.Equal(expected, bytes);
    }

    [Theory]
    [InlineData(null)]
    [InlineData("")]
    [InlineData("MB")]
    [InlineData("12XB")]
    [InlineData("-1")]
    [InlineData("+1")]
    [InlineData("1e6")]
    [InlineData("1,000")]
    [InlineData("1.5B")]
    [InlineData("1..5MB")]
    [InlineData("10 MB extra")]
    [InlineData("9223372036854775808")]
    [InlineData("10000000TB")]
    public void Anything_else_is_refused(string? text)
    {
        Assert.False(ByteSize.TryParse(text, out long bytes));
        Assert.Equal(0, bytes);
    }
}
