using System.Diagnostics.Metrics;
using Microsoft.Extensions.Diagnostics.Metrics.Testing;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// One host's <c>EventFilter</c> meter read through <see cref="MetricCollector{T}"/>s (Microsoft.Extensions.Diagnostics.Testing),
/// one per documented instrument, all made at once so that none misses a measurement. An instrument reports longs or
/// doubles, so each name gets a collector of each; only the one of the instrument's type ever sees a measurement.
/// </summary>
public sealed class FilterMeter : IDisposable
{
    /// <summary>The instruments docs/telemetry.md documents.</summary>
    public static readonly string[] Documented =
    [
        "eventfilter.adds", "eventfilter.lookups", "eventfilter.fill_ratio", "eventfilter.false_positive_rate",
        "eventfilter.names.estimated", "eventfilter.size", "eventfilter.checkpoint.position", "eventfilter.checkpoint.lag",
        "eventfilter.catch_up.progress", "eventfilter.checkpoints", "eventfilter.flush.duration", "eventfilter.flush.bytes",
        "eventfilter.fold.bytes", "eventfilter.fold.duration", "eventfilter.lines.corrupted", "eventfilter.lines.repaired",
        "eventfilter.rebuilds", "eventfilter.resizes", "eventfilter.checkpoints.ignored", "eventfilter.truncations",
        "eventfilter.catch_up.records", "eventfilter.errors", "eventfilter.host_contract.violations", "eventfilter.log_contract.violations",
        "eventfilter.log.reads", "eventfilter.log.records", "eventfilter.log.read_position", "eventfilter.log.read_lag",
        "eventfilter.log.read_lag.duration",
    ];

    private const string MeterName = "EventFilter";
    private readonly Dictionary<string, (MetricCollector<long> Longs, MetricCollector<double> Doubles)> _collectors = [];

    public FilterMeter(IMeterFactory meterFactory)
    {
        foreach (string name in Documented)
        {
            _collectors[name] = (new MetricCollector<long>(meterFactory, MeterName, name), new MetricCollector<double>(meterFactory, MeterName, name));
        }
    }

    /// <summary>The instrument itself (its unit, its description), once the host has created it; null before.</summary>
    public Instrument? Instrument(string name) => Collectors(name) is var (longs, doubles) ? (Instrument?)longs.Instrument ?? doubles.Instrument : null;

    /// <summary>Collects the observable instruments now and returns the value <paramref name="name"/> reported (with the tag value, if given).</summary>
    public double? Observe(string name, string? tag = null)
    {
        (MetricCollector<long> longs, MetricCollector<double> doubles) = Collectors(name);
        longs.RecordObservableInstruments();
        doubles.RecordObservableInstruments();
        return Measurements(name, tag).LastOrDefault() is { } last ? last : null;
    }

    /// <summary>The sum of what a synchronous counter added.</summary>
    public double Sum(string name, string? tag = null) => Measurements(name, tag).Sum(v => v ?? 0);

    /// <summary>How many values a histogram recorded.</summary>
    public int Count(string name) => Measurements(name, null).Count();

    public void Dispose()
    {
        foreach ((MetricCollector<long> longs, MetricCollector<double> doubles) in _collectors.Values)
        {
            longs.Dispose();
            doubles.Dispose();
        }
    }

    private IEnumerable<double?> Measurements(string name, string? tag)
    {
        (MetricCollector<long> longs, MetricCollector<double> doubles) = Collectors(name);
        static bool Tagged(IReadOnlyDictionary<string, object?> tags, string? tag) => tag is null || tags.Values.Any(v => v?.ToString() == tag);
        return longs.GetMeasurementSnapshot().Where(m => Tagged(m.Tags, tag)).Select(m => (double?)m.Value)
            .Concat(doubles.GetMeasurementSnapshot().Where(m => Tagged(m.Tags, tag)).Select(m => (double?)m.Value));
    }

    private (MetricCollector<long>, MetricCollector<double>) Collectors(string name) =>
        _collectors.TryGetValue(name, out var pair) ? pair : throw new ArgumentException($"'{name}' is not a documented instrument.", nameof(name));
}
