using EventFilter.Format;

namespace EventFilter.Tests.Statistics;

public sealed class FalsePositiveModelTests
{
    // Sizes the model gave before its sum used log-gamma and its search started at the classic size.
    [Theory]
    [InlineData(1_000, 0.05, 3, 960)]
    [InlineData(1_000_000, 0.01, 6, 1_322_048)]
    [InlineData(10_000_000, 0.01, 6, 13_219_520)]
    [InlineData(100_000_000, 0.001, 8, 209_029_056)]
    [InlineData(1_000_000_000, 0.01, 6, 1_321_944_896)]
    public void SizeFor_keeps_the_sizes_it_gave_for_ordinary_counts(double names, double rate, int k, long bytes)
    {
        Assert.Equal(bytes, FalsePositiveModel.SizeFor(names, rate, k));
    }

    // Rates the model gave before: few names per line sum from zero as before; many names per line start from
    // Stirling's ln(n!) instead of a sum of logs, whose rounding moved the old values by up to a few parts in 10^9.
    [Theory]
    [InlineData(256_000_000, 3_999_999, 6, 0.030078439622114924, 1e-15)]
    [InlineData(1_000_000, 15_624, 24, 0.369579236586178, 1e-15)]
    [InlineData(10_000_000, 13_219_520 / 64 - 1, 6, 0.009999975149243561, 1e-15)]
    [InlineData(500_000, 1_000, 6, 0.988099354505297, 1e-8)]
    [InlineData(1_000_000, 1_000, 6, 0.9999761405026484, 1e-8)]
    [InlineData(300, 1, 1, 0.4647385714803513, 1e-8)]
    [InlineData(600, 1, 24, 0.9999999999924619, 1e-8)]
    [InlineData(5_000, 1, 2, 0.9999999981130947, 1e-8)]
    public void Expected_keeps_the_rates_it_gave_before(double names, long lines, int k, double rate, double relativeTolerance)
    {
        double actual = FalsePositiveModel.Expected(names, lines, k);

        Assert.InRange(Math.Abs(actual - rate) / rate, 0, relativeTolerance);
    }

    [Fact]
    public void SizeFor_a_trillion_names_is_the_million_name_size_scaled_and_its_rate_meets_the_target()
    {
        // The rate depends only on names per line, so a trillion names need a million times the lines of a million.
        // (At 75%: a trillion names fit no file at any lower rate.)
        long lines = SmallestLinesMeeting(1e12, 0.75, 6);
        long millionLines = SmallestLinesMeeting(1e6, 0.75, 6);

        Assert.InRange(lines, (millionLines - 1) * 1_000_000, millionLines * 1_000_000);
    }

    [Fact]
    public void SizeFor_a_trillion_names_at_one_percent_is_larger_than_any_file()
    {
        Assert.Equal(-1, FalsePositiveModel.SizeFor(1e12, 0.01, 6));
    }

    [Fact]
    public void SizeFor_finds_sizes_between_two_and_four_billion_lines()
    {
        // 150G names at 1% need about 3.1 billion lines: within a file's 2^32 - 1, past the 2^31 a doubling search from one line tried last.
        Assert.InRange(SmallestLinesMeeting(150e9, 0.01, 6), (1L << 31) + 1, uint.MaxValue);
    }

    [Theory]
    [InlineData(1e12, 1, 6)]
    [InlineData(1e12, 1, 1)]
    [InlineData(3e9, 1, 6)]
    [InlineData(1e12, 16_384, 32)]
    public void Expected_at_billions_of_names_per_line_is_one(double names, long lines, int k)
    {
        Assert.Equal(1.0, FalsePositiveModel.Expected(names, lines, k), 15);
    }

    [Fact]
    public void Expected_for_a_trillion_names_in_the_largest_file_is_finite_and_a_rate()
    {
        double rate = FalsePositiveModel.Expected(1e12, uint.MaxValue, 6);

        // 232.8 names per line: the Poisson sum, evaluated independently at that load, gives 0.7122.
        Assert.True(double.IsFinite(rate));
        Assert.InRange(rate, 0.7122, 0.7123);
    }

    /// <summary>The lines of <see cref="FalsePositiveModel.SizeFor"/>'s size, checked to be the fewest that meet the target.</summary>
    private static long SmallestLinesMeeting(double names, double rate, int k)
    {
        long lines = (FalsePositiveModel.SizeFor(names, rate, k) / FilterGeometry.LineSize) - 1;
        Assert.True(FalsePositiveModel.Expected(names, lines, k) <= rate, $"{lines} lines miss {rate}");
        Assert.True(FalsePositiveModel.Expected(names, lines - 1, k) > rate, $"{lines - 1} lines already meet {rate}");
        return lines;
    }
}
