using System.Collections.Concurrent;
using System.Diagnostics.Metrics;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// Listens to one host's <c>EventFilter</c> meter (Microsoft.Extensions.Diagnostics.Testing is not on the registry).
/// Other tests' hosts run in parallel with meters of the same name, so instruments are matched by the meter's scope,
/// which is the host's IMeterFactory.
/// </summary>
public sealed class MetricsRecorder : IDisposable
{
    private readonly MeterListener _listener = new();
    private readonly List<(string Instrument, double Value, string? Tag)> _measurements = [];

    public MetricsRecorder(IMeterFactory scope)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            if (instrument.Meter.Name == "EventFilter" && ReferenceEquals(instrument.Meter.Scope, scope))
            {
                Instruments.Enqueue(instrument);
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.Start();
    }

    public ConcurrentQueue<Instrument> Instruments { get; } = new();

    /// <summary>Collects the observable instruments now, and returns the value <paramref name="instrument"/> reported.</summary>
    public double? Observe(string instrument, string? tag = null)
    {
        int from = Snapshot().Length;
        _listener.RecordObservableInstruments();
        return Snapshot().Skip(from).LastOrDefault(m => m.Instrument == instrument && (tag is null || m.Tag == tag)) is { Instrument: not null } m ? m.Value : null;
    }

    /// <summary>The sum of what a synchronous counter added.</summary>
    public double Sum(string instrument, string? tag = null) => Snapshot().Where(m => m.Instrument == instrument && (tag is null || m.Tag == tag)).Sum(m => m.Value);

    /// <summary>How many values a histogram recorded.</summary>
    public int Count(string instrument) => Snapshot().Count(m => m.Instrument == instrument);

    public void Dispose() => _listener.Dispose();

    private (string Instrument, double Value, string? Tag)[] Snapshot()
    {
        lock (_measurements)
        {
            return [.. _measurements];
        }
    }

    private void Record(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        lock (_measurements)
        {
            _measurements.Add((instrument.Name, value, tags.Length > 0 ? tags[0].Value?.ToString() : null));
        }
    }
}
