using System.Diagnostics.Metrics;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using EventFilter.Daemon.Server;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.Metrics.Testing;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Testing;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Failing checkpoints are counted one by one but logged once per episode (Server/Checkpointer.cs): a failure that
/// repeats (no descriptors, a full disk) once logged an error with its stack trace for every filter on every tick. And a
/// pending filter whose files could not be made still counts what it is owed in the descriptor budget (in the budget's
/// collection: the count is the process's).
/// </summary>
[Collection(DescriptorBudgetTests.Name)]
public sealed class CheckpointEpisodeTests
{
    private const int FailedTicks = 5;

    [Fact]
    public async Task Ticks_that_keep_failing_log_once_and_once_more_when_they_succeed_again()
    {
        using var directory = new TempDirectory();
        var time = new SteppedTime();
        var logs = new FakeLogCollector();
        using ServiceProvider services = TelemetryTests.DaemonServices(time, logs);
        using var errors = new MetricCollector<long>(services.GetRequiredService<IMeterFactory>(), DaemonMetrics.MeterName, "eventfilterd.errors");
        using var commands = new InProcessCommands(directory.Path, LogSync.Periodic, time);
        long before = DescriptorBudget.Held;

        // A new filter holding its first item: the tick makes its directory, and a file in the way fails that.
        Assert.Equal(1L, commands.Call("BF.ADD", "f", "x"));
        NamedFilter filter = commands.Store.Find("f"u8)!;
        Assert.True(filter.HasHeldItems && !filter.HasFiles);
        string blocked = Path.Combine(directory.Path, DataLayout.FiltersDirectory, filter.Name);
        File.WriteAllText(blocked, "in the way");

        var options = new DaemonOptions { DataDirectory = directory.Path, LogSync = LogSync.Periodic };
        using var checkpointer = new Checkpointer(
            options, commands.Store, services.GetRequiredService<DaemonMetrics>(), services.GetRequiredService<DaemonHealth>(), time, services.GetRequiredService<ILogger>());
        await checkpointer.StartAsync(CancellationToken.None);
        await time.NextWaitAsync(); // the ticks' timer
        for (int tick = 1; tick <= FailedTicks; tick++)
        {
            time.Advance(options.SyncInterval);
            Poll.Until(() => Failures(errors) >= tick, () => $"failed tick {tick}: {Failures(errors)} failures counted");
        }

        Assert.False(filter.HasFiles);
        Assert.Equal(before + DescriptorBudget.PerNewFilter, DescriptorBudget.Held); // still owed, drawn by no open file

        File.Delete(blocked);
        time.Advance(options.SyncInterval);
        Poll.Until(() => filter.HasFiles && Logged(logs, "CheckpointsRecovered") == 1, "a tick that succeeds again");
        await checkpointer.StopAsync(CancellationToken.None);

        Assert.Equal(1, Logged(logs, "CheckpointFailed"));
        Assert.Contains($"after {Failures(errors)} failures", logs.GetSnapshot().Single(r => r.Id.Name == "CheckpointsRecovered").Message, StringComparison.Ordinal);
        Assert.Equal(1L, commands.Call("BF.EXISTS", "f", "x"));
    }

    private static long Failures(MetricCollector<long> errors) =>
        errors.GetMeasurementSnapshot().Where(m => (string?)m.Tags["eventfilterd.operation"] == "checkpoint").Sum(m => m.Value);

    private static int Logged(FakeLogCollector logs, string name) => logs.GetSnapshot().Count(r => r.Id.Name == name);
}
