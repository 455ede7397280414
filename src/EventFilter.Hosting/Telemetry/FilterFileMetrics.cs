using System.Diagnostics.Metrics;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// The instruments of what happens to filter files (checkpoints, folds, verification, rebuilds, resizes, truncations,
/// catch-up, failures), which <see cref="TelemetryObserver"/> records; listed in docs/telemetry.md. Apart from
/// <see cref="FilterMetrics"/>'s instruments of one hosted filter, so that eventfilterd, whose many filters' layer
/// files report through the same observer, exports these under the same names and nothing that describes one filter.
/// </summary>
internal sealed class FilterFileMetrics
{
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
    private readonly Counter<long> _violations;
    private readonly Counter<long> _logViolations;
    private readonly Counter<long> _logReads;
    private readonly Counter<long> _logRecords;
    private volatile CatchUpProgress? _catchUp;

    /// <summary>
    /// Seconds. The exporters' default boundaries are for milliseconds (0, 5, 10, ... 10000), where every flush lands
    /// in the first bucket. A flush is one journal append and an fsync: from 100 µs on a fast SSD to seconds on a
    /// stalled disk.
    /// </summary>
    internal static readonly double[] FlushBuckets = [0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];

    /// <summary>Seconds. A fold writes the journal's changed blocks into a file of up to 256 GiB: milliseconds to minutes.</summary>
    internal static readonly double[] FoldBuckets = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300];

    /// <summary>Creates the instruments on <paramref name="meter"/>, the caller's <c>EventFilter</c> meter (it disposes it).</summary>
    public FilterFileMetrics(Meter meter)
    {
        meter.CreateObservableGauge("eventfilter.catch_up.progress", () => Observe(_catchUp?.Percent / 100), "1", "Share of the log the current or last catch-up has read, 0 to 1.");
        _checkpoints = meter.CreateCounter<long>("eventfilter.checkpoints", "{checkpoint}", "Checkpoints made durable.");
        _flushDuration = meter.CreateHistogram<double>("eventfilter.flush.duration", "s", "Wall time of each checkpoint's flush (journal append plus fsync).", tags: null, advice: new() { HistogramBucketBoundaries = FlushBuckets });
        _flushBytes = meter.CreateCounter<long>("eventfilter.flush.bytes", "By", "Bytes of device blocks written by checkpoint flushes (journal appends, or changed blocks written in place).");
        _foldBytes = meter.CreateCounter<long>("eventfilter.fold.bytes", "By", "Bytes of filter-file blocks written by folds of the journal.");
        _foldDuration = meter.CreateHistogram<double>("eventfilter.fold.duration", "s", "Wall time of each fold of the journal into the filter file.", tags: null, advice: new() { HistogramBucketBoundaries = FoldBuckets });
        _corruptedLines = meter.CreateCounter<long>("eventfilter.lines.corrupted", "{line}", "Corrupted lines found by verification on open (mismatched checksums plus all-ones lines).");
        _repairedLines = meter.CreateCounter<long>("eventfilter.lines.repaired", "{line}", "Lines that verification set to all ones and wrote back.");
        _rebuilds = meter.CreateCounter<long>("eventfilter.rebuilds", "{rebuild}", "Filter files rebuilt from the log, tagged eventfilter.rebuild.reason.");
        _resizes = meter.CreateCounter<long>("eventfilter.resizes", "{resize}", "Resizes (the configured size differs from the file's), tagged eventfilter.resize.stage = started or completed.");
        _ignoredCheckpoints = meter.CreateCounter<long>("eventfilter.checkpoints.ignored", "{checkpoint}", "Checkpoints found unusable on open (missing, invalid or stale), each costing a catch-up from the log's start.");
        _truncations = meter.CreateCounter<long>("eventfilter.truncations", "{truncation}", "Log truncations that moved the checkpoint back.");
        _catchUpRecords = meter.CreateCounter<long>("eventfilter.catch_up.records", "{record}", "Log records read and added by catch-up.");
        _errors = meter.CreateCounter<long>("eventfilter.errors", "{error}", "Failures, tagged eventfilter.operation = open, catch-up, checkpoint or log-read (every call to the host's log that threw), and error.type = the exception's type.");
        _logViolations = meter.CreateCounter<long>("eventfilter.log_contract.violations", "{violation}", "Episodes of the host's log breaking its rules, tagged eventfilter.violation = short-read, end-moved-back, read-past-end, position-not-advancing, end-behind-adds or follower-stalled.");
        _logReads = meter.CreateCounter<long>("eventfilter.log.reads", "{read}", "Reads of the host's log that moved on, by catch-up or the follower.");
        _logRecords = meter.CreateCounter<long>("eventfilter.log.records", "{record}", "Records those reads returned and added.");
        _violations = meter.CreateCounter<long>("eventfilter.host_contract.violations", "{violation}", "Host calls that broke the host contract, tagged eventfilter.violation = late-add, truncation-not-reported or add-after-dispose.");
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

    public void RecordViolation(LogContractViolation violation) =>
        _logViolations.Add(1, new KeyValuePair<string, object?>("eventfilter.violation", TagValues.Of(violation)));

    public void RecordViolation(HostContractViolation violation) =>
        _violations.Add(1, new KeyValuePair<string, object?>("eventfilter.violation", TagValues.Of(violation)));

    public void RecordRead(int records)
    {
        _logReads.Add(1);
        _logRecords.Add(records);
    }

    /// <summary>Tagged with the operation and, per the OpenTelemetry conventions for errors, <c>error.type</c>: the exception's full type name.</summary>
    public void RecordError(string operation, Exception error) =>
        _errors.Add(1, new KeyValuePair<string, object?>("eventfilter.operation", operation), new KeyValuePair<string, object?>("error.type", error.GetType().FullName));

    /// <summary>Progress reports carry a running total per catch-up; the counter gets the difference.</summary>
    public void RecordCatchUp(CatchUpProgress progress)
    {
        CatchUpProgress? previous = _catchUp;
        bool sameRun = previous is not null && previous.Path == progress.Path && previous.StartPosition == progress.StartPosition && previous.Records <= progress.Records;
        _catchUpRecords.Add(progress.Records - (sameRun ? previous!.Records : 0));
        _catchUp = progress;
    }

    /// <summary>One measurement of a value that is known, none of one that is not (yet).</summary>
    internal static IEnumerable<Measurement<T>> Observe<T>(T? value)
        where T : struct => value is { } v ? [new Measurement<T>(v)] : [];
}
