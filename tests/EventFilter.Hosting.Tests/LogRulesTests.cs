using System.Diagnostics.Metrics;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// A log that breaks its rules is named where an operator looks (docs/telemetry.md): event 30, the counter
/// <c>eventfilter.log_contract.violations</c> and an Unhealthy check saying what holds the catch-up; the filter answers
/// "maybe" meanwhile. And the checkpoint lag stays truthful when the log's end is stuck behind the host's appends.
/// </summary>
public sealed class LogRulesTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();
    private readonly TimerCountingTime _time = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_log_whose_reads_come_back_empty_below_its_end_is_logged_counted_and_unhealthy()
    {
        _log.AppendRange(0, 100);
        _log.ReadsNothing = true;
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();

        // The catch-up retries on the host's clock: move it on until the violation has lasted long enough to be reported.
        await Poll.UntilAsync(() => _time.Advance(TimeSpan.FromSeconds(1)) >= 0 && _logs.Messages(30).Any(), "the log violation to be reported");

        FakeLogRecord logged = Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == 30);
        Assert.Equal(LogLevel.Error, logged.Level);
        Assert.Equal("LogContractViolated", logged.Id.Name);
        Assert.Contains("(short-read): ReadAsync(0) returned no record while EndPosition is 100", logged.Message, StringComparison.Ordinal);
        Assert.Equal(1, metrics.Sum("eventfilter.log_contract.violations", "short-read"));
        HealthReportEntry health = await host.HealthAsync();
        Assert.Equal(HealthStatus.Unhealthy, health.Status);
        Assert.StartsWith("catching up, held by the log: short-read", health.Description, StringComparison.Ordinal);
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("never-written"));

        // Fixed, it catches up and the check is healthy again.
        _log.ReadsNothing = false;
        await Poll.UntilAsync(() => _time.Advance(TimeSpan.FromSeconds(1)) >= 0 && filter.State == FilterState.Ready, "the catch-up to finish once the log reads again");
        Assert.Equal(HealthStatus.Healthy, (await host.HealthAsync()).Status);
        await host.StopAsync();
    }

    [Fact]
    public async Task The_checkpoint_lag_counts_appends_past_a_log_end_that_is_stuck()
    {
        _log.AppendRange(0, 500);
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();
        await filter.WhenReady;
        await Poll.UntilAsync(() => metrics.Observe("eventfilter.checkpoint.position") == 500, "catch-up checkpoints at the end it read");

        // A database log whose end is held back (an in-flight transaction): appends go on, the end does not move.
        for (int i = 500; i < 700; i++)
        {
            filter.Add(InMemoryStreamLog.Name(i), _log.AppendPending(InMemoryStreamLog.Name(i)));
        }

        Assert.Equal(500, _log.EndPosition);
        Assert.Equal(200, metrics.Observe("eventfilter.checkpoint.lag"));
        await host.StopAsync();
    }
}
