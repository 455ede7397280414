using System.Diagnostics.Metrics;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Tests;

public sealed class FailureTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_filter_that_cannot_be_opened_fails_start_with_one_critical_line_and_the_stack_at_debug()
    {
        // A directory where the filter file should be: valid settings, but the open cannot succeed. Not one of the
        // known causes (StartFailureTests), so the exception stops the host as it is.
        Directory.CreateDirectory(_dir.FilterPath);
        using IHost host = TestHosts.Build(_dir, _log, _logs);

        var error = await Assert.ThrowsAsync<IOException>(() => host.StartAsync());
        FakeLogRecord record = Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == 13);
        Assert.Equal(LogLevel.Critical, record.Level);
        Assert.Equal($"Stream-existence filter {_dir.FilterPath} could not be opened, so the host stops: {error.Message}", record.Message);

        // Regression: the line carried the exception, so the console showed its stack trace under it.
        Assert.Null(record.Exception);
        FakeLogRecord detail = Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == 40);
        Assert.Equal(LogLevel.Debug, detail.Level);
        Assert.Same(error, detail.Exception);
        Assert.Equal(HealthStatus.Unhealthy, (await host.HealthAsync()).Status);
    }

    /// <summary>Regression: one exception from the log ended the catch-up, and the filter answered "maybe" until a restart.</summary>
    [Fact]
    public async Task A_log_that_throws_on_its_first_three_reads_becomes_ready_by_itself()
    {
        var time = new TimerCountingTime();
        _log.AppendRange(0, 10);
        _log.FailNextReads = 3;
        using IHost host = TestHosts.Build(_dir, _log, _logs, time);
        using var metrics = new FilterMeter(host.Services.GetRequiredService<IMeterFactory>());
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();
        Assert.Equal(HealthStatus.Degraded, (await host.HealthAsync()).Status); // catching up

        // The retries wait on the host's clock: move it on until the catch-up is through.
        await Poll.UntilAsync(() => time.Advance(TimeSpan.FromMilliseconds(10)) >= 0 && filter.State == FilterState.Ready, "the catch-up to finish once the log reads again");

        Assert.Equal(3, _log.FailedReads);
        Assert.Equal(HealthStatus.Healthy, (await host.HealthAsync()).Status);
        Assert.All(Enumerable.Range(0, 10), i => Assert.True(filter.MightExist(InMemoryStreamLog.Name(i))));
        Assert.Equal(3, metrics.Sum("eventfilter.errors", "log-read"));
        Assert.Equal(3, metrics.Sum("eventfilter.errors", typeof(IOException).FullName));
        Assert.Empty(_logs.Messages(31)); // quick failures are counted, not an episode worth a line
        Assert.Empty(_logs.Messages(12)); // nor a failure of the filter
        await host.StopAsync();
    }

    [Fact]
    public async Task A_log_down_for_seconds_is_logged_once_degraded_and_left_behind_when_it_answers()
    {
        var time = new TimerCountingTime();
        _log.AppendRange(0, 10);
        _log.FailNextReads = int.MaxValue;
        using IHost host = TestHosts.Build(_dir, _log, _logs, time);
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();

        await Poll.UntilAsync(() => time.Advance(TimeSpan.FromSeconds(1)) >= 0 && _logs.Messages(31).Any(), "the unavailable log to be reported");
        FakeLogRecord unavailable = Assert.Single(_logs.GetSnapshot(), r => r.Id.Id == 31);
        Assert.Equal(LogLevel.Error, unavailable.Level);
        Assert.Contains("System.IO.IOException: simulated: the connection to the log dropped", unavailable.Message, StringComparison.Ordinal);
        HealthReportEntry health = await host.HealthAsync();
        Assert.Equal(HealthStatus.Degraded, health.Status);
        Assert.StartsWith("catching up, waiting for the log: the log's calls fail (IOException: simulated", health.Description, StringComparison.Ordinal);
        Assert.True(filter.MightExist("never-written"));

        _log.FailNextReads = 0;
        await Poll.UntilAsync(() => time.Advance(TimeSpan.FromSeconds(1)) >= 0 && filter.State == FilterState.Ready, "the catch-up to finish once the log answers");
        Assert.Single(_logs.Messages(32));
        Assert.Equal(HealthStatus.Healthy, (await host.HealthAsync()).Status);
        await host.StopAsync();
    }

    [Fact]
    public async Task A_failed_checkpoint_is_logged_and_degraded_then_retried_and_rethrown_on_stop()
    {
        var time = new TimerCountingTime();
        var source = new BrokenPositionSource();
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs, time: time);
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "1MiB"));
        builder.Services.AddSingleton<ICheckpointPositionSource>(source);
        builder.Services.AddHealthChecks().AddStreamExistenceFilterCheck();
        using IHost host = builder.Build();
        await host.StartAsync();
        await host.Filter().WhenReady;

        source.Broken = true;
        time.Advance(TimeSpan.FromSeconds(30));
        await Poll.UntilAsync(() => _logs.Messages(14).Any(), "the failed checkpoint is logged");
        HealthReportEntry failed = await host.HealthAsync();
        Assert.Equal(HealthStatus.Degraded, failed.Status);
        Assert.Equal("checkpoint failed: the host's position is unavailable", failed.Description);

        source.Broken = false;
        _log.AppendRange(0, 10, host.Filter());
        time.Advance(TimeSpan.FromSeconds(30));
        // The position moves inside the checkpoint, before the failure is cleared: wait for health itself.
        await Poll.UntilAsync(async () => (await host.HealthAsync()).Status == HealthStatus.Healthy, "the next tick checkpoints and clears the failure");
        Assert.Equal(10, host.Filter().CheckpointPosition);

        source.Broken = true;
        await Assert.ThrowsAsync<InvalidOperationException>(() => host.StopAsync());
    }

    [Fact]
    public async Task Corrupted_lines_below_the_threshold_are_repaired_and_degraded_with_the_count()
    {
        _log.AppendRange(0, 1000);
        using (IHost first = TestHosts.Build(_dir, _log, _logs))
        {
            await first.StartAsync();
            await first.Filter().WhenReady;
            await first.StopAsync();
        }

        await using (FileStream file = File.OpenWrite(_dir.FilterPath))
        {
            file.Position = 64 + (3 * 64) + 10; // a bit byte of data line 3, after the 64-byte header
            file.WriteByte(0x5A);
        }

        using IHost host = TestHosts.Build(_dir, _log, _logs);
        await host.StartAsync();
        await host.Filter().WhenReady;
        HealthReportEntry health = await host.HealthAsync();
        Assert.Equal(HealthStatus.Degraded, health.Status);
        Assert.StartsWith("1 corrupted lines", health.Description, StringComparison.Ordinal);
        Assert.Equal(1L, health.Data["corruptedLines"]);
        Assert.Contains(_logs.Messages(3), m => m.Contains("has 1 corrupted lines", StringComparison.Ordinal) && m.EndsWith("first bad lines: 3", StringComparison.Ordinal));
        await host.StopAsync();
    }

    [Fact]
    public async Task A_line_repaired_at_an_earlier_start_leaves_later_starts_healthy_and_quiet()
    {
        await Corrupted_lines_below_the_threshold_are_repaired_and_degraded_with_the_count();
        int warningsBefore = _logs.Messages(3).Count();

        // Regression: the repaired all-ones line kept every later start Degraded, with a warning naming
        // "first bad lines: " and no line, and a health warning at every /health call.
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        await host.StartAsync();
        await host.Filter().WhenReady;
        HealthReportEntry health = await host.HealthAsync();
        Assert.Equal(HealthStatus.Healthy, health.Status);
        Assert.Equal("ready", health.Description);
        Assert.Equal(1L, health.Data["allOnesLines"]);
        Assert.Equal(1L, health.Data["corruptedLines"]);
        Assert.Equal(warningsBefore, _logs.Messages(3).Count());
        Assert.True(host.Filter().MightExist(InMemoryStreamLog.Name(3)));
        await host.StopAsync();
    }

    [Fact]
    public async Task A_disabled_filter_is_healthy_answers_maybe_and_creates_no_file()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, null, ("StreamExistenceFilterSize", "0"));
        await host.StartAsync();

        Assert.Equal(FilterState.Disabled, host.Filter().State);
        Assert.True(host.Filter().MightExist("anything"));
        HealthReportEntry health = await host.HealthAsync();
        Assert.Equal(HealthStatus.Healthy, health.Status);
        Assert.Equal("disabled", health.Description);
        await host.StopAsync();
        Assert.False(File.Exists(_dir.FilterPath));
    }

    private sealed class BrokenPositionSource : ICheckpointPositionSource
    {
        public volatile bool Broken;

        public long SafeCheckpointPosition => Broken ? throw new InvalidOperationException("the host's position is unavailable") : 10;
    }
}
