using System.Diagnostics.Metrics;
using System.Text;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Diagnostics.Metrics.Testing;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Logging.Testing;
using Microsoft.Extensions.Time.Testing;

namespace EventFilter.Daemon.Tests;

/// <summary>The meter EventFilter.Daemon and the health it reports, in process (docs/daemon.md, "Telemetry").</summary>
public sealed class TelemetryTests
{
    [Theory]
    [InlineData("BF.ADD f a", 1, 0)]
    [InlineData("bf.madd f a b c", 3, 0)]
    [InlineData("BF.EXISTS f a", 0, 1)]
    [InlineData("BF.MEXISTS f a b", 0, 2)]
    [InlineData("BF.INSERT f CAPACITY 10 ITEMS a b", 2, 0)]
    [InlineData("BF.INSERT f ITEMS", 0, 0)]
    [InlineData("bf.insert f nocreate items a b c", 3, 0)]
    [InlineData("BF.MEXISTS f", 0, 0)]
    [InlineData("BF.RESERVE f 0.01 100", 0, 0)]
    [InlineData("PING", 0, 0)]
    public void Commands_count_the_items_they_add_or_check(string command, int added, int looked)
    {
        CommandArguments arguments = Parse(command);
        Assert.Equal((added, looked), CommandItems.Of(CommandTable.Identify(arguments[0]), arguments));
    }

    [Fact]
    public void Counters_add_what_connections_report()
    {
        using ServiceProvider services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var factory = services.GetRequiredService<IMeterFactory>();
        using var commands = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.commands");
        using var added = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.items.added");
        using var errors = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.errors");
        var metrics = new DaemonMetrics(factory, new DaemonHealth(TimeProvider.System, NullLogger.Instance), TimeProvider.System);

        metrics.Ran(commands: 3, added: 130, looked: 0);
        metrics.Error(DaemonMetrics.Operation.Checkpoint);

        Assert.Equal(3, commands.LastMeasurement?.Value);
        Assert.Equal(130, added.LastMeasurement?.Value);
        Assert.Equal("checkpoint", errors.LastMeasurement?.Tags["eventfilterd.operation"]);
    }

    [Fact]
    public async Task A_storage_failure_degrades_the_health_check_the_gauge_and_info_alike_for_a_minute()
    {
        var time = new FakeTimeProvider();
        using ServiceProvider services = DaemonServices(time, new FakeLogCollector());
        var health = services.GetRequiredService<DaemonHealth>();
        var metrics = services.GetRequiredService<DaemonMetrics>();
        using var gauge = new MetricCollector<int>(services.GetRequiredService<IMeterFactory>(), DaemonMetrics.MeterName, "eventfilterd.health");

        // What HealthCheckService reports, after checking that the gauge and INFO's source say the same.
        async Task<HealthStatus> Status()
        {
            HealthReportEntry entry = (await services.GetRequiredService<HealthCheckService>().CheckHealthAsync()).Entries[DaemonHealth.CheckName];
            gauge.RecordObservableInstruments();
            Assert.Equal((int)entry.Status, gauge.LastMeasurement?.Value);
            Assert.Equal((health.Now.Status, health.Now.Description), (entry.Status, entry.Description));
            return entry.Status;
        }

        Assert.Equal(HealthStatus.Unhealthy, await Status());
        health.SetListening(true);
        Assert.Equal(HealthStatus.Healthy, await Status());
        Assert.Equal(2, gauge.LastMeasurement?.Value); // the documented values: 0 unhealthy, 1 degraded, 2 healthy

        metrics.Error(DaemonMetrics.Operation.LogCommit);
        Assert.Equal(HealthStatus.Degraded, await Status());
        Assert.StartsWith("log-commit failed at ", health.Now.Description, StringComparison.Ordinal);

        time.Advance(DaemonHealth.DegradedFor - TimeSpan.FromTicks(1));
        Assert.Equal(HealthStatus.Degraded, await Status());
        time.Advance(TimeSpan.FromTicks(1));
        Assert.Equal(HealthStatus.Healthy, await Status());

        health.SetListening(false);
        Assert.Equal(HealthStatus.Unhealthy, await Status());
    }

    /// <summary>The services Program.cs registers for telemetry, on a fake clock and a fake log.</summary>
    internal static ServiceProvider DaemonServices(TimeProvider time, FakeLogCollector logs) => new ServiceCollection()
        .AddLogging(logging => logging.SetMinimumLevel(LogLevel.Debug).AddProvider(new FakeLoggerProvider(logs)))
        .AddMetrics()
        .AddSingleton(time)
        .AddSingleton(provider => provider.GetRequiredService<ILoggerFactory>().CreateLogger("EventFilter.Daemon"))
        .AddDaemonTelemetry()
        .BuildServiceProvider();

    private static CommandArguments Parse(string command)
    {
        string[] words = command.Split(' ');
        var frame = new StringBuilder().Append('*').Append(words.Length).Append("\r\n");
        foreach (string word in words)
        {
            frame.Append('$').Append(word.Length).Append("\r\n").Append(word).Append("\r\n");
        }

        byte[] buffer = Encoding.ASCII.GetBytes(frame.ToString());
        var arguments = new CommandArguments();
        Assert.Equal(ParseResult.Command, RespParser.TryParse(buffer, buffer.Length, new RespLimits(), arguments, 0, out _, out _));
        return arguments;
    }
}
