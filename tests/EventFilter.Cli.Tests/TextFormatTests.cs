using EventFilter.Cli.Output;

namespace EventFilter.Cli.Tests;

public sealed class TextFormatTests
{
    [Theory]
    [InlineData(0.0, "0%")]
    [InlineData(0.0241, "2.41%")]
    [InlineData(0.05, "5.00%")]
    [InlineData(0.0099999, "1.00%")]
    [InlineData(0.0000120, "0.00120%")]
    [InlineData(0.5, "50.00%")]
    public void Percent_keeps_about_three_significant_digits(double fraction, string expected) =>
        Assert.Equal(expected, TextFormat.Percent(fraction));

    [Theory]
    [InlineData(1000, "1,000 bytes")]
    [InlineData(256_000_000, "256,000,000 bytes (244.1 MiB)")]
    public void Bytes_gives_the_exact_count_and_a_binary_unit(long bytes, string expected) =>
        Assert.Equal(expected, TextFormat.Bytes(bytes));

    [Fact]
    public void Duration_counts_whole_hours_past_a_day() =>
        Assert.Equal("30:00:05", TextFormat.Duration(TimeSpan.FromHours(30) + TimeSpan.FromSeconds(5)));
}
