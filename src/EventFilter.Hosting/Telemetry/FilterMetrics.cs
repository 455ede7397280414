using System.Diagnostics.Metrics;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// The meter <c>EventFilter</c> of one hosted filter, its instruments listed in docs/telemetry.md: the counts and gauges
/// of that filter here, the events of its files in <see cref="Files"/>. Hot-path counts are <see cref="StripedCount"/>s
/// read by observable counters; the file's statistics are a cached snapshot, because computing them reads every line.
/// </summary>
internal sealed class FilterMetrics : IDisposable
{
    /// <summary>The meter's name, for <c>dotnet-counters monitor --counters EventFilter</c> and OpenTelemetry's AddMeter.</summary>
    public const string MeterName = "EventFilter";

    private static readonly KeyValuePair<string, object?> DefinitelyNotTag = new("eventfilter.answer", "definitely-not");
    private static readonly KeyValuePair<string, object?> MaybeTag = new("eventfilter.answer", "maybe");
    private static readonly KeyValuePair<string, object?> NotReadyTag = new("eventfilter.answer", "not-ready");

    private readonly Meter _meter;
    private readonly bool _ownsMeter;
    private volatile FilterStatistics? _statistics;

    /// <param name="meterFactory">Where the meter comes from; null for a meter of our own.</param>
    /// <param name="checkpointPosition">The durable checkpoint's position; null before open.</param>
    /// <param name="reachedEnd">The log's end, or the highest record end the host added if further; null when the log's end cannot be read.</param>
    /// <param name="servingSize">The size of the file answering lookups.</param>
    /// <param name="reading">Where the filter has read the log to, and for how long a follower has been behind; null before open.</param>
    public FilterMetrics(IMeterFactory? meterFactory, Func<long?> checkpointPosition, Func<long?> reachedEnd, Func<long> servingSize, Func<(long Position, long? Behind, TimeSpan Lag)?> reading)
    {
        // Without a factory in DI (a bare ServiceCollection) the meter is ours to dispose.
        _ownsMeter = meterFactory is null;
        _meter = meterFactory?.Create(MeterName) ?? new Meter(MeterName);

        _meter.CreateObservableCounter("eventfilter.adds", Adds.Read, "{name}", "Stream names the host added through the filter (catch-up not included).");
        _meter.CreateObservableCounter("eventfilter.lookups", ObserveLookups, "{lookup}", "Lookups, tagged eventfilter.answer = definitely-not, maybe or not-ready.");
        _meter.CreateObservableGauge("eventfilter.fill_ratio", () => FilterFileMetrics.Observe(_statistics?.FillRatio), "1", "Share of filter bits set, as of the last statistics refresh.");
        _meter.CreateObservableGauge("eventfilter.false_positive_rate", () => FilterFileMetrics.Observe(_statistics?.EstimatedFalsePositiveRate), "1", "Estimated chance that an absent stream gets 'maybe', as of the last statistics refresh.");
        _meter.CreateObservableGauge("eventfilter.names.estimated", () => FilterFileMetrics.Observe(_statistics?.EstimatedNames), "{name}", "Estimated distinct stream names in the filter, as of the last statistics refresh.");
        _meter.CreateObservableGauge("eventfilter.size", () => FilterFileMetrics.Observe(_statistics is null ? (long?)null : servingSize()), "By", "Configured size of the file answering lookups.");
        _meter.CreateObservableGauge("eventfilter.checkpoint.position", () => FilterFileMetrics.Observe(checkpointPosition()), "{position}", "Log position the durable checkpoint covers.");
        _meter.CreateObservableGauge("eventfilter.checkpoint.lag", () => FilterFileMetrics.Observe(reachedEnd() - checkpointPosition()), "{position}", "The log's durable end, or the highest record end the host added if further, minus the checkpoint position: how much of the log a restart would re-read.");
        _meter.CreateObservableGauge("eventfilter.log.read_position", () => FilterFileMetrics.Observe(reading()?.Position), "{position}", "Every log record below this position has been read into the filter, by catch-up or the follower.");
        _meter.CreateObservableGauge("eventfilter.log.read_lag", () => FilterFileMetrics.Observe(reading()?.Behind), "{position}", "The log's durable end minus the read position: how much of the log the filter has not read yet.");
        _meter.CreateObservableGauge("eventfilter.log.read_lag.duration", () => FilterFileMetrics.Observe(reading()?.Lag.TotalSeconds), "s", "How long a following filter has been behind the log's end; 0 at the end, and without following.");
        Files = new FilterFileMetrics(_meter);
    }

    /// <summary>The instruments of the filter's files, which its <see cref="TelemetryObserver"/> records.</summary>
    public FilterFileMetrics Files { get; }

    public StripedCount Adds { get; } = new();

    public StripedCount DefinitelyNot { get; } = new();

    public StripedCount Maybe { get; } = new();

    public StripedCount NotReady { get; } = new();

    /// <summary>The snapshot the fill, false-positive and size gauges report.</summary>
    public FilterStatistics? Statistics
    {
        get => _statistics;
        set => _statistics = value;
    }

    public void Dispose()
    {
        if (_ownsMeter)
        {
            _meter.Dispose();
        }
    }

    private IEnumerable<Measurement<long>> ObserveLookups() =>
    [
        new(DefinitelyNot.Read(), DefinitelyNotTag),
        new(Maybe.Read(), MaybeTag),
        new(NotReady.Read(), NotReadyTag),
    ];
}
