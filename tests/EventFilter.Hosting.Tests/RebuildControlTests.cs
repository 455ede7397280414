using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Hosting;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// The operator's online rebuild through the host (<see cref="IFilterRebuildControl"/>, the server's
/// <c>POST /filter/rebuild</c>): it starts once, shows itself, and refuses plainly when it cannot start.
/// </summary>
public sealed class RebuildControlTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly InMemoryStreamLog _log = new();
    private readonly FakeLogCollector _logs = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_requested_rebuild_runs_once_shows_its_progress_and_swaps_in_with_every_name()
    {
        _log.AppendRange(0, 1_000);
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        var control = host.Services.GetRequiredService<IFilterRebuildControl>();
        await host.StartAsync();
        await host.Filter().WhenReady;
        _log.AppendRange(1_000, 100, host.Filter());

        // The gate holds the fresh file's reads, so the rebuild is surely under way while the test looks.
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Assert.True(control.TryStartRebuild(out string? refusal), refusal);
        Assert.False(control.TryStartRebuild(out string? second));
        Assert.Equal("an online rebuild is already under way", second);
        await Poll.UntilAsync(() => control.Rebuild is not null, "the rebuild shows itself");
        Assert.Equal(RebuildReason.Requested, control.Rebuild!.Reason);
        Assert.Equal("ready (rebuilding online)", (await host.HealthAsync()).Description);
        _log.AppendRange(1_100, 100, host.Filter());

        _log.Gate.SetResult();
        await Poll.UntilAsync(() => _logs.Messages(22).Any(m => m.EndsWith("rebuilt online (requested): the fresh file serves now", StringComparison.Ordinal)), "the rebuild swaps in");
        Assert.Null(control.Rebuild);
        Assert.Equal(HealthStatus.Healthy, (await host.HealthAsync()).Status);
        Assert.All(Enumerable.Range(0, 1_200), i => Assert.True(host.Filter().MightExist(InMemoryStreamLog.Name(i))));
        await host.StopAsync();
    }

    [Fact]
    public async Task A_filter_still_catching_up_refuses_and_starts_nothing()
    {
        _log.AppendRange(0, 100);
        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        var control = host.Services.GetRequiredService<IFilterRebuildControl>();
        await host.StartAsync();

        Assert.False(control.TryStartRebuild(out string? refusal));
        Assert.Equal("the filter is not ready (Initializing); a catch-up builds it from the log anyway", refusal);
        _log.Gate.SetResult();
        await host.Filter().WhenReady;
        await host.StopAsync();
        Assert.Empty(_logs.Messages(22));
    }

    [Fact]
    public async Task A_disabled_filter_refuses()
    {
        using IHost host = TestHosts.Build(_dir, _log, _logs, null, ("StreamExistenceFilterSize", "0"));
        await host.StartAsync();
        Assert.False(host.Services.GetRequiredService<IFilterRebuildControl>().TryStartRebuild(out string? refusal));
        Assert.Equal("the filter is disabled (size 0)", refusal);
        await host.StopAsync();
    }

    [Fact]
    public async Task A_stop_cancels_a_rebuild_under_way_and_the_host_stops_cleanly()
    {
        _log.AppendRange(0, 100);
        using IHost host = TestHosts.Build(_dir, _log, _logs);
        var control = host.Services.GetRequiredService<IFilterRebuildControl>();
        await host.StartAsync();
        await host.Filter().WhenReady;

        _log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Assert.True(control.TryStartRebuild(out _));
        await host.StopAsync();

        Assert.False(control.TryStartRebuild(out string? refusal));
        Assert.Equal("the filter is stopping", refusal);
        Assert.Empty(_logs.Messages(12)); // a cancelled rebuild is not a failure
    }
}
