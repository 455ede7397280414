using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Tests.Durability;

/// <summary>The cadence the filter's catch-up and eventfilterd's layers share: at most one report a second, then the end.</summary>
public sealed class CatchUpReporterTests
{
    [Fact]
    public void Progress_is_reported_once_a_second_at_most_and_the_end_is_left_to_the_caller()
    {
        var time = new FakeTimeProvider();
        var reports = new List<CatchUpProgress>();
        var reporter = new CatchUpReporter("filter", startPosition: 100, reports.Add, time);

        reporter.Advanced(200, 1_000, 10);
        Assert.Empty(reports); // not a second yet

        time.Advance(TimeSpan.FromMilliseconds(999));
        reporter.Advanced(300, 1_000, 20);
        Assert.Empty(reports);

        time.Advance(TimeSpan.FromMilliseconds(1));
        reporter.Advanced(400, 1_000, 30);
        reporter.Advanced(500, 1_000, 40); // the same instant: already reported
        CatchUpProgress progress = Assert.Single(reports);
        Assert.Equal((100L, 400L, 1_000L, 30L, TimeSpan.FromSeconds(1)), (progress.StartPosition, progress.Position, progress.EndPosition, progress.Records, progress.Elapsed));

        time.Advance(TimeSpan.FromSeconds(1));
        reporter.Advanced(1_200, 1_000, 50); // read past the sampled end: the end shown is never behind the position
        Assert.Equal(1_200, reports[^1].EndPosition);

        time.Advance(TimeSpan.FromMilliseconds(10));
        CatchUpProgress done = reporter.End(1_300, 60);
        Assert.Equal((1_300L, 1_300L, 60L, TimeSpan.FromMilliseconds(2_010)), (done.Position, done.EndPosition, done.Records, done.Elapsed));
        Assert.Equal(2, reports.Count);
    }
}
