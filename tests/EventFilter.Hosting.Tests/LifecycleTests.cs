using System.Text.RegularExpressions;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting.Tests;

public sealed class LifecycleTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();
    private readonly TimerCountingTime _time = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Stop_writes_a_final_checkpoint_at_the_log_end()
    {
        _log.AppendRange(0, 1000);
        using (IHost host = TestHosts.Build(_dir, _log, _logs, _time))
        {
            await host.StartAsync();
            await host.Filter().WhenReady;

            // Ready comes before catch-up's own final checkpoint (docs/design.md, "Open sequence"): wait for it.
            await Poll.UntilAsync(() => host.Filter().CheckpointPosition == 1000, "catch-up checkpoints at the end it read");
            _log.AppendRange(1000, 500, host.Filter());
            await host.StopAsync();
        }

        Assert.Equal(1500, ReadCheckpoint());
        Assert.Contains(_logs.Messages(16), m => m.EndsWith("final checkpoint at 1500", StringComparison.Ordinal));
    }

    [Fact]
    public async Task Checkpoints_are_taken_on_the_time_providers_ticks()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time, ("CheckpointInterval", "00:00:30"));
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();
        await filter.WhenReady;
        Assert.Equal(0, filter.CheckpointPosition);

        _log.AppendRange(0, 50, filter);
        // No timer is due before 30 s, so nothing can checkpoint: shown by the clock, not by waiting to see nothing happen.
        Assert.Equal(0, _time.Advance(TimeSpan.FromSeconds(29)));
        Assert.Equal(0, filter.CheckpointPosition);

        Assert.Equal(1, _time.Advance(TimeSpan.FromSeconds(1)));
        await Poll.UntilAsync(() => filter.CheckpointPosition == 50, "the first tick checkpoints at the log end");

        _log.AppendRange(50, 25, filter);
        _time.Advance(TimeSpan.FromSeconds(30));
        await Poll.UntilAsync(() => filter.CheckpointPosition == 75, "the second tick checkpoints again");
        await host.StopAsync();
    }

    [Fact]
    public async Task A_registered_position_source_bounds_the_checkpoints()
    {
        HostApplicationBuilder builder = TestHosts.Builder(_dir, _log, _logs, time: _time);
        builder.Services.AddStreamExistenceFilter(o => (o.DataDirectory, o.StreamExistenceFilterSize) = (_dir.Data, "1MiB"));
        builder.Services.AddSingleton<ICheckpointPositionSource>(new FixedPosition(20));
        using IHost host = builder.Build();
        await host.StartAsync();
        await host.Filter().WhenReady;

        _log.AppendRange(0, 50, host.Filter());
        _time.Advance(TimeSpan.FromSeconds(30));
        await Poll.UntilAsync(() => host.Filter().CheckpointPosition == 20, "the tick checkpoints at the source's position");
        await host.StopAsync();
        Assert.Equal(20, ReadCheckpoint());
    }

    [Fact]
    public async Task Readiness_goes_from_initializing_to_ready_after_catch_up()
    {
        _log.AppendRange(0, 100);
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();

        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("never-written"));
        HealthReportEntry initializing = await host.HealthAsync();
        Assert.Equal(HealthStatus.Degraded, initializing.Status);
        Assert.Equal("catching up: 0%", initializing.Description);

        _log.Gate.SetResult();
        await filter.WhenReady;
        Assert.False(filter.MightExist("never-written"));
        Assert.True(filter.MightExist(InMemoryStreamLog.Name(42)));
        HealthReportEntry ready = await host.HealthAsync();
        Assert.Equal(HealthStatus.Healthy, ready.Status);
        Assert.Equal("ready", ready.Description);
        await host.StopAsync();
    }

    [Fact]
    public async Task A_first_start_says_it_creates_the_filter_rather_than_rebuilding_it()
    {
        await StartUntilReadyAndStopAsync();

        Assert.Contains(_logs.Messages(19), m => m.EndsWith("does not exist yet: creating it and filling it from the log", StringComparison.Ordinal));
        Assert.Empty(_logs.Messages(4)); // "rebuilt" would alarm an operator on a fresh install
    }

    [Fact]
    public async Task Catch_up_progress_is_logged_with_rate_percent_and_eta()
    {
        _log.AppendRange(0, 2000);
        await StartUntilReadyAndStopAsync();

        Assert.Contains(_logs.Messages(8), m => Regex.IsMatch(m, @"^Catching up .+: 2000 records, [\d,]+ records/s, 100\.0%, ETA 00:00:00$"));
        Assert.Contains(_logs.Messages(9), m => m.Contains("caught up: 2000 records", StringComparison.Ordinal));
    }

    // Regression: an empty log's catch-up logged "100.0%, ETA unknown".
    [Fact]
    public async Task Catch_up_of_an_empty_log_says_nothing_remains()
    {
        await StartUntilReadyAndStopAsync();

        Assert.Contains(_logs.Messages(8), m => Regex.IsMatch(m, @"^Catching up .+: 0 records, 0 records/s, 100\.0%, ETA 00:00:00$"));
    }

    [Fact]
    public async Task Stop_during_catch_up_cancels_it_and_closes_the_file()
    {
        _log.AppendRange(0, 100);
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        await host.StartAsync();

        await host.StopAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => host.Filter().WhenReady);
        Assert.Equal(HealthStatus.Unhealthy, (await host.HealthAsync()).Status);
        Assert.Single(_logs.Messages(16));
        Assert.Empty(_logs.Messages(12));
        Assert.Equal(0, ReadCheckpoint());
    }

    [Fact]
    public async Task Disposing_a_started_host_without_stopping_ends_catch_up_first()
    {
        _log.AppendRange(0, 100);
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        await host.StartAsync();
        IStreamExistenceFilter filter = host.Filter();

        host.Dispose();
        Assert.NotEqual(FilterState.Ready, filter.State);
        Assert.NotEqual(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("anything"));
    }

    private async Task StartUntilReadyAndStopAsync()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, _time);
        await host.StartAsync();
        await host.Filter().WhenReady;
        await host.StopAsync();
    }

    private long? ReadCheckpoint()
    {
        using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _dir.Data, SizeBytes = 1 << 20 }, _log);
        filter.Open();
        return filter.CheckpointPosition;
    }

    private sealed class FixedPosition(long position) : ICheckpointPositionSource
    {
        public long SafeCheckpointPosition => position;
    }
}
