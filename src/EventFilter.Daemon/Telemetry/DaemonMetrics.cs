using System.Diagnostics.Metrics;
using EventFilter.Daemon.Filters;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// The instruments of the meter <c>EventFilter.Daemon</c>, each listed in docs/daemon.md, "Telemetry". Connections
/// count their commands and items per read and add them here once per read, so the hot path pays three adds per batch.
/// It also keeps the totals INFO reports (<see cref="Totals"/>), which the instruments cannot give back.
/// </summary>
internal sealed class DaemonMetrics
{
    /// <summary>The meter's name, for <c>dotnet-counters monitor --counters EventFilter.Daemon</c> and OpenTelemetry's AddMeter.</summary>
    public const string MeterName = "EventFilter.Daemon";

    private readonly Counter<long> _commands;
    private readonly Counter<long> _added;
    private readonly Counter<long> _checked;
    private readonly Counter<long> _connections;
    private readonly Counter<long> _refused;
    private readonly Counter<long> _errors;
    private readonly Counter<long> _authFailures;
    private readonly Meter _meter;
    private readonly DaemonHealth _health;
    private long _open;

    public DaemonMetrics(IMeterFactory meterFactory, DaemonHealth health, TimeProvider time)
    {
        _health = health;
        Totals = new ServerTotals(time);
        Meter meter = _meter = meterFactory.Create(MeterName);
        _commands = meter.CreateCounter<long>("eventfilterd.commands", "{command}", "Commands run, errors included.");
        _added = meter.CreateCounter<long>("eventfilterd.items.added", "{item}", "Items sent to BF.ADD, BF.MADD and BF.INSERT, new or not.");
        _checked = meter.CreateCounter<long>("eventfilterd.items.checked", "{item}", "Items looked up by BF.EXISTS and BF.MEXISTS.");
        _connections = meter.CreateCounter<long>("eventfilterd.connections", "{connection}", "Client connections accepted.");
        _refused = meter.CreateCounter<long>("eventfilterd.connections.refused", "{connection}", "Connections refused because --max-clients were open.");
        _errors = meter.CreateCounter<long>("eventfilterd.errors", "{error}", "Failures, tagged eventfilterd.operation.");
        _authFailures = meter.CreateCounter<long>("eventfilterd.auth.failures", "{attempt}", "AUTH and HELLO AUTH attempts with a wrong password or user.");
        meter.CreateObservableUpDownCounter("eventfilterd.connections.open", () => Volatile.Read(ref _open), "{connection}", "Client connections open now.");
        meter.CreateObservableGauge("eventfilterd.health", () => (int)health.Now.Status, "1", "0 unhealthy, 1 degraded, 2 healthy.");
    }

    /// <summary>The totals since start, for INFO.</summary>
    public ServerTotals Totals { get; }

    /// <summary>Adds the gauges read off the filters; called once they are open (the store reports its layers through us).</summary>
    public void Observe(FilterStore store)
    {
        _meter.CreateObservableGauge("eventfilterd.filters", () => store.Count, "{filter}", "Named filters that exist now.");
        _meter.CreateObservableGauge("eventfilterd.items", () => store.Snapshot().Sum(f => f.Count), "{item}", "Items in all filters (the sum of BF.CARD).");
    }

    /// <summary>The values of the eventfilterd.operation tag on eventfilterd.errors.</summary>
    public static class Operation
    {
        public const string Checkpoint = "checkpoint";
        public const string LogCommit = "log-commit";
        public const string Storage = "storage";
        public const string Connection = "connection";
        public const string Accept = "accept";
        public const string Verify = "verify";
    }

    public void Ran(long commands, long added, long looked)
    {
        _commands.Add(commands);
        _added.Add(added);
        _checked.Add(looked);
        Totals.Ran(commands, added);
    }

    public void Connected()
    {
        _connections.Add(1);
        Totals.Connected();
        Interlocked.Increment(ref _open);
    }

    public void Refused()
    {
        _refused.Add(1);
        Totals.Refuse();
    }

    /// <summary>A wrong password or user; never logged, so that guesses cannot flood the log or leave a password in it.</summary>
    public void AuthFailed()
    {
        _authFailures.Add(1);
        Totals.AuthFailed();
    }

    /// <summary>Connections now open, INFO's connected_clients.</summary>
    public long OpenConnections => Volatile.Read(ref _open);

    public void Disconnected() => Interlocked.Decrement(ref _open);

    /// <summary>Counts a failure and degrades health for <see cref="DaemonHealth.DegradedFor"/>.</summary>
    public void Error(string operation)
    {
        _errors.Add(1, new KeyValuePair<string, object?>("eventfilterd.operation", operation));
        _health.Failed(operation);
    }
}
