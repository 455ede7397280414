using EventFilter.Hosting.Telemetry;

namespace EventFilter.Hosting.Tests;

public sealed class CatchUpRatesTests
{
    // Regression: catch-up of an empty log (start = end) logged "100.0%, ETA unknown", since it had no rate to go by.
    [Theory]
    [InlineData(0, 0, 0, 0)]
    [InlineData(4096, 4096, 4096, 0)]
    [InlineData(0, 4096, 4096, 0)]
    [InlineData(0, 4096, 4096, 2)]
    public void Nothing_remains_once_the_end_is_reached_with_or_without_a_rate(long start, long position, long end, int seconds)
    {
        var progress = new CatchUpProgress("f", start, position, end, records: 0, TimeSpan.FromSeconds(seconds));

        Assert.Equal(100, progress.Percent);
        Assert.Equal(TimeSpan.Zero, progress.EstimatedRemaining);
    }

    [Fact]
    public void Time_left_is_the_rest_of_the_log_at_the_rate_so_far()
    {
        var halfway = new CatchUpProgress("f", 1000, 2000, 3000, records: 10, TimeSpan.FromSeconds(4));

        Assert.Equal(50, halfway.Percent);
        Assert.Equal(TimeSpan.FromSeconds(4), halfway.EstimatedRemaining);
    }

    [Fact]
    public void Before_anything_is_read_there_is_no_estimate()
    {
        Assert.Null(new CatchUpProgress("f", 1000, 1000, 3000, records: 0, TimeSpan.FromSeconds(1)).EstimatedRemaining);
    }
}
