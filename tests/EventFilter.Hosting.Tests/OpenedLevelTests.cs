using System.Diagnostics.Metrics;
using EventFilter.Hosting.Telemetry;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// The level of Opened (2), Creating (19) and CatchUpCompleted (9): Information for the hosted filter, lowered by a host
/// that opens a file per request (eventfilterd, which reports its layer files through the same observer). Nothing else
/// moves with it: damage stays a warning, catch-up progress (8) Information.
/// </summary>
public sealed class OpenedLevelTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task The_hosted_filter_logs_creating_and_opened_at_information()
    {
        using (IHost host = TestHosts.Build(_dir, new InMemoryStreamLog(), _logs, new TimerCountingTime()))
        {
            await host.StartAsync();
            await host.Filter().WhenReady;
            await host.StopAsync();
        }

        Assert.Equal(LogLevel.Information, Record(19).Level);
        Assert.Equal(LogLevel.Information, Record(2).Level);
        Assert.Equal(LogLevel.Information, Record(9).Level);
    }

    [Fact]
    public void An_observer_made_with_debug_logs_them_at_debug_and_damage_still_as_a_warning()
    {
        using var meter = new Meter(FilterMetrics.MeterName);
        var logger = new FakeLogger(_logs, Log.Category);
        var observer = new TelemetryObserver(logger, new FilterFileMetrics(meter), TimeProvider.System, LogLevel.Debug);

        observer.RebuildStarted("layer-000.filter", RebuildReason.Missing, "there is no filter file");
        observer.Opened("layer-000.filter", created: true, new VerificationResult(100, 0, 0, 0, [], 0.05));
        observer.Opened("layer-001.filter", created: false, new VerificationResult(100, 1, 1, 1, [7], 0.05));
        observer.CatchUpProgress(new CatchUpProgress("layer-001.filter", 40, 4040, 8040, 500, TimeSpan.FromSeconds(1)));
        observer.CatchUpCompleted(new CatchUpProgress("layer-001.filter", 40, 8040, 8040, 1000, TimeSpan.FromSeconds(2)));

        Assert.Equal(LogLevel.Debug, Record(19).Level);
        Assert.Equal(LogLevel.Debug, Record(9).Level);
        Assert.Equal(LogLevel.Information, Record(8).Level);
        Assert.All(_logs.GetSnapshot().Where(r => r.Id.Id == 2), r => Assert.Equal(LogLevel.Debug, r.Level));
        Assert.Equal(LogLevel.Warning, Record(3).Level);
    }

    private FakeLogRecord Record(int eventId) => Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == eventId && r.Category == Log.Category);
}
