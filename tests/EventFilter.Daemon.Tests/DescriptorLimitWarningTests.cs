using EventFilter.Daemon.Commands;
using Microsoft.Extensions.Logging.Testing;
using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Refusals at the descriptor limit are warned of at most once a minute, each warning counting the refusals since the
/// last (before, each one logged an error); time from a fake clock.
/// </summary>
public sealed class DescriptorLimitWarningTests
{
    [Fact]
    public void Refusals_are_warned_of_once_a_minute_with_their_count()
    {
        var time = new FakeTimeProvider();
        var logger = new FakeLogger();
        var warning = new DescriptorLimitWarning(time);

        warning.Refused(logger, "first");
        warning.Refused(logger, "second");
        time.Advance(DescriptorLimitWarning.Interval - TimeSpan.FromSeconds(1));
        warning.Refused(logger, "third");
        Assert.Equal(1, logger.Collector.Count);
        Assert.Equal(Microsoft.Extensions.Logging.LogLevel.Warning, logger.LatestRecord.Level);
        Assert.Contains("1 since", logger.LatestRecord.Message, StringComparison.Ordinal);

        time.Advance(TimeSpan.FromSeconds(1));
        warning.Refused(logger, "fourth");
        Assert.Equal(2, logger.Collector.Count);
        Assert.Contains("3 since", logger.LatestRecord.Message, StringComparison.Ordinal);
        Assert.Contains("fourth", logger.LatestRecord.Message, StringComparison.Ordinal);
    }
}
