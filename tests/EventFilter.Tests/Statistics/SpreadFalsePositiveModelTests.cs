namespace EventFilter.Tests.Statistics;

/// <summary>The false-positive model for keys spread over several lines (docs/design.md, "Lines per key").</summary>
public sealed class SpreadFalsePositiveModelTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    // Filters at about 1e-3 (thousands of false positives in the queries, so the 10% band is several standard deviations
    // wide); names and queries are deterministic, so the test cannot fail by chance.
    [Theory]
    [InlineData(2, 10, 15)]
    [InlineData(3, 10, 15)]
    [InlineData(3, 11, 16)]
    [InlineData(2, 13, 20)]
    public void Measured_rate_is_within_ten_percent_of_the_model(int linesPerKey, int k, int bitsPerName)
    {
        const int names = 300_000, queries = 3_000_000;
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = Names.SizeFor(names, bitsPerName), K = k, LinesPerKey = linesPerKey });
        double measured = MeasuredFalsePositives.Rate(filter, names, queries);
        double model = FalsePositiveModel.Expected(names, filter.LineCount, k, linesPerKey);
        Assert.InRange(measured / model, 0.9, 1.1);
        Assert.InRange(filter.ComputeStatistics().EstimatedNames / names, 0.97, 1.03);
    }

    [Theory]
    [InlineData(1e-3)]
    [InlineData(1e-6)]
    [InlineData(1e-7)]
    public void Spreading_over_more_lines_needs_fewer_lines_at_low_rates(double rate)
    {
        // The bits per name each choice needs at its best k, from the model: more lines per key never need more at these rates.
        double one = BitsPerName(rate, 1), two = BitsPerName(rate, 2), three = BitsPerName(rate, 3);
        Assert.True(two < one && three < two, $"{one:F2} {two:F2} {three:F2}");
        Assert.True(three < -Math.Log(rate) / (Math.Log(2) * Math.Log(2)) * 1.07, $"{three:F2} bits per name at {rate}"); // within 7% of the standard bound
    }

    [Fact]
    public void One_line_per_key_is_the_one_line_model()
    {
        Assert.Equal(FalsePositiveModel.Expected(1e6, 100_000, 9), FalsePositiveModel.Expected(1e6, 100_000, 9, 1));
    }

    [Theory]
    [InlineData(1e12, 1_000, 12, 3)]
    [InlineData(1e7, 1, 2, 2)]
    [InlineData(1e6, 10, 6, 2)]
    public void A_saturated_filter_is_all_false_positives_however_many_names_per_line(double names, long lines, int k, int linesPerKey)
    {
        // A line past saturation counts as its Poisson mass alone, so a mean of 10^9 names per line costs no more than one of 10^3.
        Assert.InRange(FalsePositiveModel.Expected(names, lines, k, linesPerKey), 1 - 1e-9, 1 + 1e-9);
    }

    private static double BitsPerName(double rate, int linesPerKey)
    {
        const double names = 1e6;
        double best = double.MaxValue;
        int classic = (int)Math.Round(-Math.Log2(rate));
        for (int k = Math.Max(linesPerKey, classic - 4); k <= classic + 2; k++)
        {
            long low = 1, high = 1 << 20;
            while (high - low > 1)
            {
                long mid = (low + high) / 2;
                (low, high) = FalsePositiveModel.Expected(names, mid, k, linesPerKey) > rate ? (mid, high) : (low, mid);
            }

            best = Math.Min(best, high * 480 / names);
        }

        return best;
    }
}
