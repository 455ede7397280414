using System.Diagnostics.Metrics;
using System.Text;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Diagnostics.Metrics.Testing;
using Microsoft.Extensions.Logging.Abstractions;
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
    [InlineData("BF.RESERVE f 0.01 100", 0, 0)]
    [InlineData("PING", 0, 0)]
    public void Commands_count_the_items_they_add_or_check(string command, int added, int looked) =>
        Assert.Equal((added, looked), CommandItems.Of(Parse(command)));

    [Fact]
    public void Counters_add_what_connections_report()
    {
        using ServiceProvider services = new ServiceCollection().AddMetrics().BuildServiceProvider();
        var factory = services.GetRequiredService<IMeterFactory>();
        using var commands = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.commands");
        using var added = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.items.added");
        using var errors = new MetricCollector<long>(factory, DaemonMetrics.MeterName, "eventfilterd.errors");
        var metrics = new DaemonMetrics(factory, new DaemonHealth(TimeProvider.System, NullLogger.Instance));

        metrics.Ran(commands: 3, added: 130, looked: 0);
        metrics.Error(DaemonMetrics.Operation.Checkpoint);

        Assert.Equal(3, commands.LastMeasurement?.Value);
        Assert.Equal(130, added.LastMeasurement?.Value);
        Assert.Equal("checkpoint", errors.LastMeasurement?.Tags["eventfilterd.operation"]);
    }

    [Fact]
    public void A_storage_failure_degrades_health_for_a_minute()
    {
        var time = new FakeTimeProvider();
        var health = new DaemonHealth(time, NullLogger.Instance);
        Assert.Equal(HealthStatus.Unhealthy, health.Status);

        health.SetListening(true);
        Assert.Equal(HealthStatus.Healthy, health.Status);

        health.Failed(DaemonMetrics.Operation.LogCommit);
        Assert.Equal(HealthStatus.Degraded, health.Status);

        time.Advance(DaemonHealth.DegradedFor);
        Assert.Equal(HealthStatus.Healthy, health.Status);

        health.SetListening(false);
        Assert.Equal(HealthStatus.Unhealthy, health.Status);
    }

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
