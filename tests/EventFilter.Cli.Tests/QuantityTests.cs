using EventFilter.Cli.Parsing;

namespace EventFilter.Cli.Tests;

public sealed class QuantityTests
{
    [Theory]
    [InlineData("256000000", 256_000_000)]
    [InlineData("256_000_000", 256_000_000)]
    [InlineData("256MB", 256_000_000)]
    [InlineData("256 mb", 256_000_000)]
    [InlineData("1GiB", 1L << 30)]
    [InlineData("1.5G", 1_500_000_000)]
    [InlineData("64KiB", 65_536)]
    [InlineData("2TB", 2_000_000_000_000)]
    [InlineData("100B", 100)]
    public void Sizes_accept_decimal_and_binary_units(string text, long expected)
    {
        Assert.True(Quantity.TryParseBytes(text, out long value, out string? error), error);
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("10M", 10_000_000)]
    [InlineData("1k", 1_000)]
    [InlineData("2.5M", 2_500_000)]
    public void Counts_accept_decimal_units(string text, long expected)
    {
        Assert.True(Quantity.TryParseCount(text, out long value, out string? error), error);
        Assert.Equal(expected, value);
    }

    [Theory]
    [InlineData("")]
    [InlineData("MB")]
    [InlineData("-5")]
    [InlineData("1.0001K")]
    [InlineData("12XB")]
    [InlineData("1e6")]
    [InlineData("99999999999999999999T")]
    public void Nonsense_is_rejected_with_a_reason(string text)
    {
        Assert.False(Quantity.TryParseBytes(text, out _, out string? error));
        Assert.False(string.IsNullOrEmpty(error));
    }

    [Fact]
    public void Counts_do_not_take_a_bytes_suffix()
    {
        Assert.False(Quantity.TryParseCount("10MB", out _, out _));
    }
}
