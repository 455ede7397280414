using System.Diagnostics.Metrics;
using EventFilter.PostgreSql.End;

namespace EventFilter.PostgreSql.Telemetry;

/// <summary>
/// Meter <c>EventFilter.PostgreSql</c>: the events table's end as the package sees it, its wake-ups and its failures
/// (docs/telemetry.md lists them; the alert rules key on them).
/// </summary>
internal sealed class PostgreSqlMetrics : IDisposable
{
    public const string MeterName = "EventFilter.PostgreSql";

    private readonly Meter _meter;
    private readonly Counter<long> _notifications;
    private readonly Counter<long> _errors;
    private readonly Counter<long> _uniqueViolations;

    public PostgreSqlMetrics(IMeterFactory? factory, SafeEnd end)
    {
        _meter = factory?.Create(MeterName) ?? new Meter(MeterName);
        _meter.CreateObservableGauge("eventfilter.postgresql.safe_end", () => end.Value, "{position}", "The safe end: every transaction that took a position below it has ended");
        _meter.CreateObservableGauge("eventfilter.postgresql.allocated", () => end.Allocated, "{position}", "The highest position the table's sequence had handed out at the last reading");
        _meter.CreateObservableGauge("eventfilter.postgresql.safe_end.held", () => end.HeldFor.TotalSeconds, "s", "How long the safe end has been held below a position already handed out (a transaction in flight); 0 when settled");
        _notifications = _meter.CreateCounter<long>("eventfilter.postgresql.notifications", "{notification}", "Commit notifications received (LISTEN)");
        _errors = _meter.CreateCounter<long>("eventfilter.postgresql.errors", "{error}", "Failed readings of the end (end-read) and listener connections lost (listen)");
        _uniqueViolations = _meter.CreateCounter<long>("eventfilter.postgresql.unique_violations", "{append}", "Appending transactions tried again after a unique violation: the filter had not yet heard of a stream another process created");
    }

    public void Notified() => _notifications.Add(1);

    public void Failed(string operation, Exception error) =>
        _errors.Add(1, new KeyValuePair<string, object?>("eventfilter.operation", operation), new KeyValuePair<string, object?>("error.type", error.GetType().FullName));

    public void UniqueViolation() => _uniqueViolations.Add(1);

    public void Dispose() => _meter.Dispose();
}
