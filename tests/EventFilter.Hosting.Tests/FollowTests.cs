using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// <c>FollowLog</c> from configuration: the hosted filter keeps reading the log, so it learns what another process
/// appended, and says how far it has read (docs/design.md, "Following the log").
/// </summary>
public sealed class FollowTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_following_hosted_filter_learns_another_processs_appends()
    {
        _log.AppendRange(0, 10);
        using IHost host = TestHosts.Build(_dir, _log, _logs, settings: ("FollowLog", "true"));
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();
        IFilterReadPosition reading = host.Services.GetRequiredService<IFilterReadPosition>();
        await filter.WhenReady;
        Assert.False(filter.MightExist("another-process-1"));

        long end = _log.Append("another-process-1"); // appended by another process: this one never adds it
        await reading.WaitForReadPositionAsync(end, CancellationToken.None).WaitAsync(Poll.Bound);

        Assert.True(filter.MightExist("another-process-1"));
        Assert.Equal(end, reading.ReadPosition);
        HealthReportEntry health = await host.HealthAsync();
        Assert.Equal(HealthStatus.Healthy, health.Status);
        Assert.Equal(end, health.Data["readPosition"]);
        await host.StopAsync(); // the follower ends with the host, and the final checkpoint claims what it read
        Assert.EndsWith($"final checkpoint at {end}", Assert.Single(_logs.Messages(16)), StringComparison.Ordinal);
    }

    [Fact]
    public async Task A_bad_poll_interval_is_refused_naming_its_key()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, settings: ("FollowPollInterval", "00:05:00"));

        var error = await Assert.ThrowsAnyAsync<Microsoft.Extensions.Options.OptionsValidationException>(() => host.StartAsync());
        Assert.Contains("StreamExistenceFilter:FollowPollInterval", error.Message, StringComparison.Ordinal);
        Assert.Contains("00:01:00", error.Message, StringComparison.Ordinal);
    }
}
