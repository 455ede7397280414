using System.Diagnostics.Metrics;
using EventFilter.Durability;
using EventFilter.Integrity;
using EventFilter.Statistics;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// The instruments of the meter <c>EventFilter</c>, each listed in docs/telemetry.md. Hot-path counts are
/// <see cref="StripedCount"/>s read by observable counters; the file's statistics are a cached snapshot, because
/// computing them reads every line.
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
    private readonly Counter<long> _checkpoints;
    private readonly Histogram<double> _flushDuration;
    private readonly Counter<long> _flushBytes;
    private readonly Counter<long> _foldBytes;
    private readonly Histogram<double> _foldDuration;
    private readonly Counter<long> _corruptedLines;
    private readonly Counter<long> _repairedLines;
    private readonly Counter<long> _rebuilds;
    private readonly Counter<long> _resizes;
    private readonly Counter<long> _ignoredCheckpoints;
    private readonly Counter<long> _truncations;
    private readonly Counter<long> _catchUpRecords;
    private readonly Counter<long> _errors;
    private volatile FilterStatistics? _statistics;
    private volatile CatchUpProgress? _catchUp;

    public FilterMetrics(IMeterFactory? meterFactory, Func<long?> checkpointPosition, Func<long> logEnd)
    {
        // Without a factory in DI (a bare ServiceCollection) the meter is ours to dispose.
        _ownsMeter = meterFactory is null;
        _meter = meterFactory?.Create(MeterName) ?? new Meter(MeterName);

        _meter.CreateObservableCounter("eventfilter.adds", Adds.Read, "{name}", "Stream names the host added through the filter (catch-up not included).");
        _meter.CreateObservableCounter("eventfilter.lookups", ObserveLookups, "{lookup}", "Lookups, tagged eventfilter.answer = definitely-not, maybe or not-ready.");
        _meter.CreateObservableGauge("eventfilter.fill_ratio", () => Observe(_statistics?.FillRatio), "1", "Share of filter bits set, as of the last statistics refresh.");
        _meter.CreateObservableGauge("eventfilter.false_positive_rate", () => Observe(_statistics?.EstimatedFalsePositiveRate), "1", "Estimated chance that an absent stream gets 'maybe', as of the last statistics refresh.");
        _meter.CreateObservableGauge("eventfilter.names.estimated", () => Observe(_statistics?.EstimatedNames), "{name}", "Estimated distinct stream names in the filter, as of the last statistics refresh.");
        _meter.CreateObservableGauge("eventfilter.size", () => Observe(_statistics?.SizeBytes), "By", "Configured size of the file answering lookups.");
        _meter.CreateObservableGauge("eventfilter.checkpoint.position", () => Observe(checkpointPosition()), "{position}", "Log position the durable checkpoint covers.");
        _meter.CreateObservableGauge("eventfilter.checkpoint.lag", () => Observe(logEnd() - checkpointPosition()), "{position}", "Log end minus checkpoint position: how much of the log a restart would re-read.");
        _meter.CreateObservableGauge("eventfilter.catch_up.progress", () => Observe(_catchUp?.Percent / 100), "1", "Share of the log the current or last catch-up has read, 0 to 1.");
        _checkpoints = _meter.CreateCounter<long>("eventfilter.checkpoints", "{checkpoint}", "Checkpoints made durable.");
        _flushDuration = _meter.CreateHistogram<double>("eventfilter.flush.duration", "s", "Wall time of each checkpoint's flush (journal append plus fsync).");
        _flushBytes = _meter.CreateCounter<long>("eventfilter.flush.bytes", "By", "Bytes of device blocks written by checkpoint flushes (journal appends, or changed blocks written in place).");
        _foldBytes = _meter.CreateCounter<long>("eventfilter.fold.bytes", "By", "Bytes of filter-file blocks written by folds of the journal.");
        _foldDuration = _meter.CreateHistogram<double>("eventfilter.fold.duration", "s", "Wall time of each fold of the journal into the filter file.");
        _corruptedLines = _meter.CreateCounter<long>("eventfilter.lines.corrupted", "{line}", "Corrupted lines found by verification on open (mismatched checksums plus all-ones lines).");
        _repairedLines = _meter.CreateCounter<long>("eventfilter.lines.repaired", "{line}", "Lines that verification set to all ones and wrote back.");
        _rebuilds = _meter.CreateCounter<long>("eventfilter.rebuilds", "{rebuild}", "Filter files rebuilt from the log, tagged eventfilter.rebuild.reason.");
        _resizes = _meter.CreateCounter<long>("eventfilter.resizes", "{resize}", "Resizes (the configured size differs from the file's), tagged eventfilter.resize.stage = started or completed.");
        _ignoredCheckpoints = _meter.CreateCounter<long>("eventfilter.checkpoints.ignored", "{checkpoint}", "Checkpoints found unusable on open (missing, invalid or stale), each costing a catch-up from the log's start.");
        _truncations = _meter.CreateCounter<long>("eventfilter.truncations", "{truncation}", "Log truncations that moved the checkpoint back.");
        _catchUpRecords = _meter.CreateCounter<long>("eventfilter.catch_up.records", "{record}", "Log records read and added by catch-up.");
        _errors = _meter.CreateCounter<long>("eventfilter.errors", "{error}", "Failures, tagged eventfilter.operation = open, catch-up or checkpoint.");
    }

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

    public void RecordCheckpoint(FlushResult flush)
    {
        _checkpoints.Add(1);
        _flushDuration.Record(flush.Duration.TotalSeconds);
        _flushBytes.Add(flush.BytesFlushed);
    }

    public void RecordFold(FlushResult fold)
    {
        _foldBytes.Add(fold.BytesFlushed);
        _foldDuration.Record(fold.Duration.TotalSeconds);
    }

    public void RecordVerification(VerificationResult verification)
    {
        _corruptedLines.Add(verification.CorruptedLines);
        _repairedLines.Add(verification.RepairedLines);
    }

    public void RecordRebuild(RebuildReason reason) =>
        _rebuilds.Add(1, new KeyValuePair<string, object?>("eventfilter.rebuild.reason", TagValues.Of(reason)));

    public void RecordResize(string stage) => _resizes.Add(1, new KeyValuePair<string, object?>("eventfilter.resize.stage", stage));

    public void RecordIgnoredCheckpoint() => _ignoredCheckpoints.Add(1);

    public void RecordTruncation() => _truncations.Add(1);

    public void RecordError(string operation) => _errors.Add(1, new KeyValuePair<string, object?>("eventfilter.operation", operation));

    /// <summary>Progress reports carry a running total per catch-up; the counter gets the difference.</summary>
    public void RecordCatchUp(CatchUpProgress progress)
    {
        CatchUpProgress? previous = _catchUp;
        bool sameRun = previous is not null && previous.Path == progress.Path && previous.StartPosition == progress.StartPosition && previous.Records <= progress.Records;
        _catchUpRecords.Add(progress.Records - (sameRun ? previous!.Records : 0));
        _catchUp = progress;
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

    private static IEnumerable<Measurement<T>> Observe<T>(T? value)
        where T : struct => value is { } v ? [new Measurement<T>(v)] : [];
}
