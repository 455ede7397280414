using System.Globalization;
using System.Diagnostics.Metrics;
using EventFilter.Hosting.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting;

/// <summary>
/// Turns each thing the core reports about a filter file into a log line and metrics, as the hosted filter does: lines
/// under the category <c>EventFilter</c> with the event ids of docs/telemetry.md, the file instruments of the meter
/// <c>EventFilter</c>, and the end of the spans of the activity source <c>EventFilter</c> that these callbacks bound. A host that opens filter files itself (eventfilterd, through <see cref="CheckpointedFilterFile"/>)
/// passes one as their observer; it may derive from it to count more on top.
/// </summary>
public class TelemetryObserver : FilterObserver
{
    private readonly ILogger _logger;
    private readonly FilterFileMetrics _metrics;
    private readonly LogLevel _openedLevel;
    private readonly TimeProvider _time;
    private volatile VerificationResult? _verification;
    private volatile CatchUpProgress? _progress;
    private volatile Exception? _backgroundFailure;
    private volatile string? _logViolation;
    private volatile bool _logUnavailable;
    private int _violationsLogged; // a bit per HostContractViolation: each is logged once, counted always

    /// <summary>Logs through <paramref name="loggerFactory"/> and records on the meter <c>EventFilter</c> of <paramref name="meterFactory"/>.</summary>
    /// <param name="loggerFactory">Where the lines go, under the category <c>EventFilter</c>.</param>
    /// <param name="meterFactory">Where the instruments are created.</param>
    /// <param name="openedLevel">
    /// The level of Opened, Creating and CatchUpCompleted: Information for one hosted filter; a host of many files made
    /// on request (eventfilterd, a layer file per filter's first add, each caught up at start) passes Debug so that they
    /// do not drown the rest. Catch-up progress (once a second of a long one) stays Information.
    /// </param>
    public TelemetryObserver(ILoggerFactory loggerFactory, IMeterFactory meterFactory, LogLevel openedLevel = LogLevel.Information)
        : this(
            (loggerFactory ?? throw new ArgumentNullException(nameof(loggerFactory))).CreateLogger(Log.Category),
            new FilterFileMetrics((meterFactory ?? throw new ArgumentNullException(nameof(meterFactory))).Create(FilterMetrics.MeterName)),
#pragma warning disable RS0030 // a public constructor's default, as an option's: the clock only times the fold spans of a host's own files
            TimeProvider.System,
#pragma warning restore RS0030
            openedLevel)
    {
    }

    internal TelemetryObserver(ILogger logger, FilterFileMetrics metrics, TimeProvider time, LogLevel openedLevel = LogLevel.Information)
    {
        _logger = logger;
        _metrics = metrics;
        _openedLevel = openedLevel;
        _time = time;
    }

    /// <summary>What verification found when the serving file was last opened.</summary>
    internal VerificationResult? LastVerification => _verification;

    /// <summary>The latest catch-up report (of the serving file, or of a resize target).</summary>
    internal CatchUpProgress? LastProgress => _progress;

    /// <summary>Why catch-up or a resize failed. The core reports it before it publishes the Failed state.</summary>
    internal Exception? BackgroundFailure => _backgroundFailure;

    /// <summary>
    /// What is wrong with the host's log as a reader last reported it (a broken rule, or calls that keep failing), until
    /// the log recovers or a catch-up completes; null while all is well.
    /// </summary>
    internal string? LogViolation => _logViolation;

    /// <summary>True when <see cref="LogViolation"/> is calls that keep failing, not a broken rule.</summary>
    internal bool LogIsUnavailable => _logUnavailable;

    /// <summary>The catch-up, resize and online rebuild spans under way, which this observer's callbacks end.</summary>
    internal FilterSpans Spans { get; } = new();

    /// <inheritdoc/>
    public override void Opened(string path, bool created, VerificationResult verification)
    {
        _verification = verification;
        _metrics.RecordVerification(verification);
        Log.Opened(_logger, _openedLevel, path, created ? "created" : "opened", verification.LinesChecked, verification.CorruptedLines);
        // Only damage found now is worth a warning, with its line numbers. All-ones lines that an earlier start repaired
        // are safe and already written back: a warning about them at every start, with no line to name, would be noise
        // that hides real damage. They are still in the count above and in the statistics.
        if (verification.MismatchedLines > 0)
        {
            string firstBad = string.Join(", ", verification.FirstBadLines);
            Log.CorruptedLines(_logger, path, verification.CorruptedLines, verification.CorruptedFraction, verification.Threshold, verification.RepairedLines, firstBad);
        }
    }

    /// <inheritdoc/>
    public override void RebuildStarted(string path, RebuildReason reason, string detail)
    {
        _metrics.RecordRebuild(reason);
        Spans.RebuildStarted(path, reason);

        // A missing file is usually the first start, not a problem: say so in words a new operator expects.
        if (reason == RebuildReason.Missing)
        {
            Log.Creating(_logger, _openedLevel, path);
            return;
        }

        Log.RebuildStarted(_logger, LogLevel.Warning, path, TagValues.Of(reason), detail);
    }

    /// <inheritdoc/>
    public override void ResizeStarted(string path, long fromSizeBytes, long toSizeBytes)
    {
        _metrics.RecordResize(TagValues.Started);
        Spans.ResizeStarted(path, fromSizeBytes, toSizeBytes);
        Log.ResizeStarted(_logger, path, fromSizeBytes, toSizeBytes);
    }

    /// <inheritdoc/>
    public override void ResizeCompleted(string path, long sizeBytes)
    {
        _metrics.RecordResize(TagValues.Completed);
        Spans.ResizeCompleted();
        Log.ResizeCompleted(_logger, path, sizeBytes);
    }

    /// <inheritdoc/>
    public override void OnlineRebuildCompleted(string path, RebuildReason reason)
    {
        // The fresh file has no damage: what the last open found no longer describes the serving file, and a failed
        // earlier attempt is superseded.
        _verification = null;
        _backgroundFailure = null;
        Spans.RebuildCompleted();
        Log.OnlineRebuildCompleted(_logger, path, TagValues.Of(reason));
    }

    /// <inheritdoc/>
    public override void CheckpointIgnored(string path, string reason)
    {
        _metrics.RecordIgnoredCheckpoint();
        Log.CheckpointIgnored(_logger, path, reason);
    }

    /// <inheritdoc/>
    public override void CatchUpProgress(CatchUpProgress progress)
    {
        _progress = progress;
        _metrics.RecordCatchUp(progress);
        Log.CatchUpProgress(_logger, progress.Path, progress.Records, progress.RecordsPerSecond, progress.Percent, FormatEta(progress.EstimatedRemaining));
    }

    /// <inheritdoc/>
    public override void CatchUpCompleted(CatchUpProgress progress)
    {
        _progress = progress;
        _logViolation = null;
        _logUnavailable = false;
        _metrics.RecordCatchUp(progress);
        Spans.CatchUpCompleted(progress);
        Log.CatchUpCompleted(_logger, _openedLevel, progress.Path, progress.Records, progress.Elapsed.TotalSeconds, progress.RecordsPerSecond);
    }

    /// <inheritdoc/>
    public override void JournalFolded(string path, FlushResult fold)
    {
        _metrics.RecordFold(fold);
        FilterSpans.Folded(path, fold, _time.GetUtcNow());
        Log.JournalFolded(_logger, path, fold.BytesFlushed, fold.Duration.TotalMilliseconds);
    }

    /// <inheritdoc/>
    public override void JournalDamaged(string path, string detail) => Log.JournalDamaged(_logger, path, detail);

    /// <inheritdoc/>
    public override void CheckpointWritten(string path, long position, FlushResult flush)
    {
        _metrics.RecordCheckpoint(flush);
        Log.CheckpointWritten(_logger, path, position, flush.BytesFlushed, flush.Duration.TotalMilliseconds);
    }

    /// <inheritdoc/>
    public override void Truncated(string path, long fromPosition, long toPosition)
    {
        _metrics.RecordTruncation();
        Log.Truncated(_logger, path, fromPosition, toPosition);
    }

    /// <inheritdoc/>
    public override void HostContractViolated(string path, HostContractViolation violation, string detail)
    {
        _metrics.RecordViolation(violation);
        int bit = 1 << (int)violation;
        if ((Interlocked.Or(ref _violationsLogged, bit) & bit) == 0)
        {
            Log.HostContractViolated(_logger, path, TagValues.Of(violation), detail);
        }
    }

    /// <inheritdoc/>
    public override void LogContractViolated(string path, LogContractViolation violation, string detail)
    {
        // The core reports each episode once, after seconds of retries: every one is logged.
        _logViolation = $"{TagValues.Of(violation)}: {detail}";
        _logUnavailable = false;
        _metrics.RecordViolation(violation);
        Log.LogContractViolated(_logger, path, TagValues.Of(violation), detail);
    }

    /// <inheritdoc/>
    public override void LogReadFailed(string path, Exception error)
    {
        _metrics.RecordError(TagValues.LogRead, error);
        Log.LogReadFailed(_logger, path, error.GetType().Name, error.Message);
    }

    /// <inheritdoc/>
    public override void LogUnavailable(string path, Exception error, TimeSpan failingFor)
    {
        _logViolation = $"the log's calls fail ({error.GetType().Name}: {error.Message})";
        _logUnavailable = true;
        Log.LogUnavailable(_logger, path, failingFor.TotalSeconds, error.GetType().FullName ?? error.GetType().Name, error.Message, error);
    }

    /// <inheritdoc/>
    public override void LogRecovered(string path, TimeSpan after)
    {
        _logViolation = null;
        _logUnavailable = false;
        Log.LogRecovered(_logger, path, after.TotalSeconds);
    }

    /// <inheritdoc/>
    public override void RecordsRead(string path, int records) => _metrics.RecordRead(records);

    /// <inheritdoc/>
    public override void BackgroundWorkFailed(string path, Exception error)
    {
        _backgroundFailure = error;
        _metrics.RecordError(TagValues.CatchUp, error);
        Spans.Failed(error);
        Log.BackgroundWorkFailed(_logger, path, error.Message, error);
    }

    private static string FormatEta(TimeSpan? remaining) => remaining is { } eta
        ? TimeSpan.FromSeconds(Math.Ceiling(eta.TotalSeconds)).ToString("c", CultureInfo.InvariantCulture)
        : "unknown";
}
