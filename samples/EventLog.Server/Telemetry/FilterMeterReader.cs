using System.Diagnostics.Metrics;

namespace EventLog.Server.Telemetry;

/// <summary>
/// Reads the hosted filter's observable instruments (meter <c>EventFilter</c>, docs/telemetry.md) on demand, for
/// <c>GET /filter</c>: the package exposes its statistics as metrics, not as an API. Only the meter created by this
/// host's <see cref="IMeterFactory"/> is read, so several servers in one process (the tests) never mix.
/// </summary>
internal sealed class FilterMeterReader : IDisposable
{
    private const string MeterName = "EventFilter";

    private readonly MeterListener _listener = new();
    private readonly Lock _gate = new();
    private Dictionary<string, double> _collecting = new(StringComparer.Ordinal);

    public FilterMeterReader(IMeterFactory meterFactory)
    {
        _listener.InstrumentPublished = (instrument, listener) =>
        {
            // Observable instruments only: they cost nothing until collected. Plain counters would call back on every add.
            if (instrument.IsObservable && instrument.Meter.Name == MeterName && ReferenceEquals(instrument.Meter.Scope, meterFactory))
            {
                listener.EnableMeasurementEvents(instrument);
            }
        };
        _listener.SetMeasurementEventCallback<long>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.SetMeasurementEventCallback<double>((instrument, value, tags, _) => Record(instrument, value, tags));
        _listener.Start();
    }

    /// <summary>
    /// Every observable instrument's current value, keyed by name, plus <c>name|tag value</c> for tagged ones
    /// (<c>eventfilter.lookups|maybe</c>). An instrument with nothing to report (no statistics yet) is absent.
    /// </summary>
    public IReadOnlyDictionary<string, double> Collect()
    {
        lock (_gate)
        {
            _collecting = new Dictionary<string, double>(StringComparer.Ordinal);
            _listener.RecordObservableInstruments();
            return _collecting;
        }
    }

    public void Dispose() => _listener.Dispose();

    // Called synchronously from RecordObservableInstruments, under _gate.
    private void Record(Instrument instrument, double value, ReadOnlySpan<KeyValuePair<string, object?>> tags)
    {
        string key = tags.Length > 0 ? $"{instrument.Name}|{tags[0].Value}" : instrument.Name;
        _collecting[key] = value;
    }
}
