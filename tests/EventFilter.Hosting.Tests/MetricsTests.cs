using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

public sealed class MetricsTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();
    private readonly TimerCountingTime _time = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Every_documented_instrument_exists_with_a_unit_and_a_description()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();

        // The documented instruments (docs/telemetry.md), every one of them created, with a unit and a description.
        Assert.All(FilterMeter.Documented, name => Assert.NotNull(metrics.Instrument(name)));
        Assert.All(FilterMeter.Documented, name => Assert.False(string.IsNullOrEmpty(metrics.Instrument(name)!.Unit), name));
        Assert.All(FilterMeter.Documented, name => Assert.False(string.IsNullOrEmpty(metrics.Instrument(name)!.Description), name));
        await host.StopAsync();
    }

    [Theory]
    [InlineData("eventfilter.flush.duration", 0.0001, 10)]
    [InlineData("eventfilter.fold.duration", 0.001, 300)]
    public async Task Each_duration_histogram_advises_bucket_boundaries_in_seconds(string name, double first, double last)
    {
        // Without advice, exporters use millisecond boundaries (0, 5, 10, ...), and every flush of a few ms landed in le="5".
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();

        var histogram = Assert.IsType<Histogram<double>>(metrics.Instrument(name));
        Assert.Equal("s", histogram.Unit);
        IReadOnlyList<double> buckets = histogram.Advice?.HistogramBucketBoundaries ?? [];
        Assert.Equal(first, buckets[0]);
        Assert.Equal(last, buckets[^1]);
        Assert.Equal(buckets.Order(), buckets);
        await host.StopAsync();
    }

    [Fact]
    public async Task Adds_and_lookups_are_counted_by_answer()
    {
        _log.AppendRange(0, 300);
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();

        Assert.True(filter.MightExist("asked-before-ready"));
        _log.Gate.SetResult();
        await filter.WhenReady;
        _log.AppendRange(300, 3, filter);
        for (int i = 0; i < 303; i++)
        {
            Assert.True(filter.MightExist(InMemoryStreamLog.Name(i)));
        }

        int definitelyNot = Enumerable.Range(0, 100).Count(i => !filter.MightExist($"absent-{i}"));

        Assert.Equal(3, metrics.Observe("eventfilter.adds"));
        Assert.Equal(1, metrics.Observe("eventfilter.lookups", "not-ready"));
        Assert.Equal(definitelyNot, metrics.Observe("eventfilter.lookups", "definitely-not"));
        Assert.Equal(303 + 100 - definitelyNot, metrics.Observe("eventfilter.lookups", "maybe"));
        Assert.True(definitelyNot > 90);
        Assert.Equal(300, metrics.Sum("eventfilter.catch_up.records"));
        Assert.Equal(1, metrics.Observe("eventfilter.catch_up.progress"));
        await host.StopAsync();
    }

    [Fact]
    public async Task Checkpoints_report_position_lag_flushes_and_statistics()
    {
        _log.AppendRange(0, 500);
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();
        await filter.WhenReady;

        Assert.Equal(1, metrics.Sum("eventfilter.rebuilds", "missing"));

        // Ready comes before catch-up's own final checkpoint (docs/design.md, "Open sequence"): wait for it.
        await Poll.UntilAsync(() => metrics.Observe("eventfilter.checkpoint.position") == 500, "catch-up checkpoints at the end it read");
        _log.AppendRange(500, 200, filter);
        Assert.Equal(200, metrics.Observe("eventfilter.checkpoint.lag"));

        _time.Advance(TimeSpan.FromSeconds(30));
        await Poll.UntilAsync(() => metrics.Observe("eventfilter.checkpoint.lag") == 0, "the tick checkpoints at the log end");
        // The snapshot from the end of catch-up (500 names) is already non-zero: wait for the one that counts 700.
        await Poll.UntilAsync(() => metrics.Observe("eventfilter.names.estimated") is >= 650 and <= 750, "statistics are refreshed after the checkpoint");
        Assert.Equal(700, metrics.Observe("eventfilter.checkpoint.position"));
        double fpr = metrics.Observe("eventfilter.false_positive_rate")!.Value;
        Assert.InRange(fpr, double.Epsilon, 1e-6);
        Assert.Equal(1 << 20, metrics.Observe("eventfilter.size"));
        Assert.True(metrics.Count("eventfilter.flush.duration") >= 2);
        Assert.True(metrics.Sum("eventfilter.flush.bytes") > 0);
        Assert.True(metrics.Sum("eventfilter.checkpoints") >= 2);

        filter.TruncateTo(600);
        Assert.Equal(1, metrics.Sum("eventfilter.truncations"));
        Assert.Equal(600, metrics.Observe("eventfilter.checkpoint.position"));
        Assert.Contains(_logs.Messages(11), m => m.EndsWith("checkpoint moved back from 700 to 600", StringComparison.Ordinal));
        await host.StopAsync();
    }

    [Fact]
    public async Task Host_contract_violations_are_counted_each_time_and_logged_once()
    {
        _log.AppendRange(0, 100);
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();
        await filter.WhenReady;

        // The log going back twice without TruncateTo.
        filter.Checkpoint(100);
        filter.Checkpoint(50);
        filter.Checkpoint(100);
        filter.Checkpoint(40);

        Assert.Equal(2, metrics.Sum("eventfilter.host_contract.violations", "truncation-not-reported"));
        FakeLogRecord logged = Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == 23);
        Assert.Equal(LogLevel.Error, logged.Level);
        Assert.Equal("HostContractViolated", logged.Id.Name);
        Assert.Contains("Checkpoint(50) came after Checkpoint(100) with no TruncateTo in between", logged.Message);
        await host.StopAsync();
    }
}
