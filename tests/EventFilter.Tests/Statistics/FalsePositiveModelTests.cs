using EventFilter.Format;

namespace EventFilter.Tests.Statistics;

public sealed class FalsePositiveModelTests
{
    // Sizes checked against an independent evaluation (the distribution of set bits in a line, probe by probe): the
    // rate at each size meets the target and one line fewer does not.
    [Theory]
    [InlineData(1_000, 0.05, 3, 960)]
    [InlineData(1_000_000, 0.01, 6, 1_325_184)]
    [InlineData(10_000_000, 0.01, 6, 13_251_072)]
    [InlineData(100_000_000, 0.001, 8, 209_758_912)]
    [InlineData(1_000_000_000, 0.01, 6, 1_325_096_128)]
    public void SizeFor_gives_the_independently_checked_sizes_for_ordinary_counts(double names, double rate, int k, long bytes)
    {
        Assert.Equal(bytes, FalsePositiveModel.SizeFor(names, rate, k));
    }

    // Rates from an independent evaluation: the distribution of set bits in a line, probe by probe, weighted by the
    // same Poisson window. Near 1 the model counts saturated lines by their Poisson mass alone, hence the looser tolerance.
    [Theory]
    [InlineData(256_000_000, 3_999_999, 6, 0.030336208596856748, 1e-12)]
    [InlineData(1_000_000, 15_624, 24, 0.37673631547607495, 1e-12)]
    [InlineData(10_000_000, 13_219_520 / 64 - 1, 6, 0.010098625374200898, 1e-12)]
    [InlineData(500_000, 1_000, 6, 0.9881600328537388, 1e-8)]
    [InlineData(1_000_000, 1_000, 6, 0.9999762644252914, 1e-8)]
    [InlineData(300, 1, 1, 0.46473857148098696, 1e-8)]
    [InlineData(600, 1, 24, 0.9999999999955456, 1e-8)]
    [InlineData(5_000, 1, 2, 0.9999999981749578, 1e-8)]
    public void Expected_agrees_with_an_independent_evaluation(double names, long lines, int k, double rate, double relativeTolerance)
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

        // 232.8 names per line: the Poisson sum, evaluated independently at that load, gives 0.7133.
        Assert.True(double.IsFinite(rate));
        Assert.InRange(rate, 0.7132, 0.7134);
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
