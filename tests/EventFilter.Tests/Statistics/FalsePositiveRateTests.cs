using EventFilter.Format;

namespace EventFilter.Tests.Statistics;

public sealed class FalsePositiveRateTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(8, 1_000_000, 2_000_000)]
    [InlineData(16, 1_000_000, 3_000_000)]
    public void Measured_rate_is_within_ten_percent_of_the_model(int bitsPerName, int names, int queries)
    {
        long size = Names.SizeFor(names, bitsPerName);
        using FilterFile filter = FilterFile.Open(_dir.File("filter.bin"), new FilterFileOptions { SizeBytes = size });
        for (int i = 0; i < names; i++)
        {
            filter.Add(Names.Added(i));
        }

        int falsePositives = 0;
        for (int i = 0; i < queries; i++)
        {
            if (filter.MightExist(Names.Absent(i)))
            {
                falsePositives++;
            }
        }

        double measured = (double)falsePositives / queries;
        double model = FalsePositiveModel.Expected(names, filter.LineCount, filter.Header.K);
        Assert.InRange(measured / model, 0.9, 1.1);

        // The per-line estimate from bit counts must agree with what was measured, and count the names.
        FilterStatistics stats = filter.ComputeStatistics();
        Assert.InRange(stats.EstimatedFalsePositiveRate / measured, 0.9, 1.1);
        Assert.InRange(stats.EstimatedNames / names, 0.97, 1.03);
    }

    [Fact]
    public void A_filter_files_default_k_is_near_best_at_eight_bits_and_better_than_that_best_at_sixteen()
    {
        // What FilterFileOptions.DefaultK's summary says; the stream-existence filter's default is DefaultKTests'.
        const long lines = 1_000_000;
        double AtBits(int bits, int k) => FalsePositiveModel.Expected(lines * 480.0 / bits, lines, k);
        int bestAt8 = FalsePositiveModel.BestK(8);
        Assert.InRange(AtBits(8, FilterFileOptions.DefaultK) / AtBits(8, bestAt8), 1.0, 1.02);
        Assert.True(AtBits(16, FilterFileOptions.DefaultK) < AtBits(16, bestAt8) * 0.8);
    }

    [Fact]
    public void SizeFor_gives_the_smallest_size_meeting_the_target()
    {
        long size = FalsePositiveModel.SizeFor(1_000_000, 0.01, 6);
        long lines = size / FilterGeometry.LineSize - 1;
        Assert.True(FalsePositiveModel.Expected(1_000_000, lines, 6) <= 0.01);
        Assert.True(FalsePositiveModel.Expected(1_000_000, lines - 1, 6) > 0.01);
    }
}
