using System.Globalization;
using EventFilter.Durability;
using EventFilter.Integrity;
using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// Turns each thing the core reports into a log line and metrics, and keeps the latest verification and
/// catch-up progress for the health check. Not sealed: eventfilterd reports its layer files through it and adds its
/// own error counts on top (src/EventFilter.Daemon/Telemetry/LayerObserver.cs).
/// </summary>
/// <param name="logger">A logger of the category <see cref="Log.Category"/>.</param>
/// <param name="metrics">The instruments of filter files.</param>
/// <param name="openedLevel">
/// The level of Opened, Creating and CatchUpCompleted: Information for one hosted filter; a host of many files made on
/// request (eventfilterd, a layer file per filter's first add, each caught up at start) passes Debug so that they do not
/// drown the rest. Catch-up progress (once a second of a long one) stays Information.
/// </param>
internal class TelemetryObserver(ILogger logger, FilterFileMetrics metrics, LogLevel openedLevel = LogLevel.Information) : FilterObserver
{
    private volatile VerificationResult? _verification;
    private volatile CatchUpProgress? _progress;
    private volatile Exception? _backgroundFailure;
    private int _violationsLogged; // a bit per HostContractViolation: each is logged once, counted always

    /// <summary>What verification found when the serving file was last opened.</summary>
    public VerificationResult? LastVerification => _verification;

    /// <summary>The latest catch-up report (of the serving file, or of a resize target).</summary>
    public CatchUpProgress? LastProgress => _progress;

    /// <summary>Why catch-up or a resize failed. The core reports it before it publishes the Failed state.</summary>
    public Exception? BackgroundFailure => _backgroundFailure;

    public override void Opened(string path, bool created, VerificationResult verification)
    {
        _verification = verification;
        metrics.RecordVerification(verification);
        Log.Opened(logger, openedLevel, path, created ? "created" : "opened", verification.LinesChecked, verification.CorruptedLines);
        // Only damage found now is worth a warning, with its line numbers. All-ones lines that an earlier start repaired
        // are safe and already written back: warning about them at every start, with no line to name, was noise
        // (issue 15). They are still in the count above and in the statistics.
        if (verification.MismatchedLines > 0)
        {
            string firstBad = string.Join(", ", verification.FirstBadLines);
            Log.CorruptedLines(logger, path, verification.CorruptedLines, verification.CorruptedFraction, verification.Threshold, verification.RepairedLines, firstBad);
        }
    }

    public override void RebuildStarted(string path, RebuildReason reason, string detail)
    {
        metrics.RecordRebuild(reason);

        // A missing file is usually the first start, not a problem: say so in words a new operator expects.
        if (reason == RebuildReason.Missing)
        {
            Log.Creating(logger, openedLevel, path);
            return;
        }

        Log.RebuildStarted(logger, LogLevel.Warning, path, TagValues.Of(reason), detail);
    }

    public override void ResizeStarted(string path, long fromSizeBytes, long toSizeBytes)
    {
        metrics.RecordResize(TagValues.Started);
        Log.ResizeStarted(logger, path, fromSizeBytes, toSizeBytes);
    }

    public override void ResizeCompleted(string path, long sizeBytes)
    {
        metrics.RecordResize(TagValues.Completed);
        Log.ResizeCompleted(logger, path, sizeBytes);
    }

    public override void OnlineRebuildCompleted(string path, RebuildReason reason)
    {
        // The fresh file has no damage: what the last open found no longer describes the serving file, and a failed
        // earlier attempt is superseded.
        _verification = _verification is { } found ? found with { MismatchedLines = 0, AllOnesLines = 0, RepairedLines = 0, FirstBadLines = [] } : null;
        _backgroundFailure = null;
        Log.OnlineRebuildCompleted(logger, path, TagValues.Of(reason));
    }

    public override void CheckpointIgnored(string path, string reason)
    {
        metrics.RecordIgnoredCheckpoint();
        Log.CheckpointIgnored(logger, path, reason);
    }

    public override void CatchUpProgress(CatchUpProgress progress)
    {
        _progress = progress;
        metrics.RecordCatchUp(progress);
        Log.CatchUpProgress(logger, progress.Path, progress.Records, progress.RecordsPerSecond, progress.Percent, FormatEta(progress.EstimatedRemaining));
    }

    public override void CatchUpCompleted(CatchUpProgress progress)
    {
        _progress = progress;
        metrics.RecordCatchUp(progress);
        Log.CatchUpCompleted(logger, openedLevel, progress.Path, progress.Records, progress.Elapsed.TotalSeconds, progress.RecordsPerSecond);
    }

    public override void JournalFolded(string path, FlushResult fold)
    {
        metrics.RecordFold(fold);
        Log.JournalFolded(logger, path, fold.BytesFlushed, fold.Duration.TotalMilliseconds);
    }

    public override void JournalDamaged(string path, string detail) => Log.JournalDamaged(logger, path, detail);

    public override void CheckpointWritten(string path, long position, FlushResult flush)
    {
        metrics.RecordCheckpoint(flush);
        Log.CheckpointWritten(logger, path, position, flush.BytesFlushed, flush.Duration.TotalMilliseconds);
    }

    public override void Truncated(string path, long fromPosition, long toPosition)
    {
        metrics.RecordTruncation();
        Log.Truncated(logger, path, fromPosition, toPosition);
    }

    public override void HostContractViolated(string path, HostContractViolation violation, string detail)
    {
        metrics.RecordViolation(violation);
        int bit = 1 << (int)violation;
        if ((Interlocked.Or(ref _violationsLogged, bit) & bit) == 0)
        {
            Log.HostContractViolated(logger, path, TagValues.Of(violation), detail);
        }
    }

    public override void BackgroundWorkFailed(string path, Exception error)
    {
        _backgroundFailure = error;
        metrics.RecordError(TagValues.CatchUp);
        Log.BackgroundWorkFailed(logger, path, error.Message, error);
    }

    private static string FormatEta(TimeSpan? remaining) => remaining is { } eta
        ? TimeSpan.FromSeconds(Math.Ceiling(eta.TotalSeconds)).ToString("c", CultureInfo.InvariantCulture)
        : "unknown";
}
