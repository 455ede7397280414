using Microsoft.Extensions.Logging;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// Every line the hosted filter logs, and eventfilterd of its layer files, under the category <c>EventFilter</c>. Event
/// ids are stable: dashboards and alerts key on them (listed in docs/telemetry.md). Sources generated, so a disabled
/// level costs one check.
/// </summary>
internal static partial class Log
{
    /// <summary>The category of every line here, in the hosted filter and in eventfilterd alike.</summary>
    public const string Category = "EventFilter";

    [LoggerMessage(1, LogLevel.Information, "Stream-existence filter starting: {Path}, {SizeBytes} bytes, checkpoint every {CheckpointInterval} at {PositionSource}", EventName = "Starting")]
    public static partial void Starting(ILogger logger, string path, long sizeBytes, TimeSpan checkpointInterval, string positionSource);

    // Information in the hosted filter; eventfilterd logs it at Debug (TelemetryObserver's openedLevel).
    [LoggerMessage(EventId = 2, Message = "Stream-existence filter {Path} {Action} and verified: {LinesChecked} lines, {CorruptedLines} corrupted", EventName = "Opened")]
    public static partial void Opened(ILogger logger, LogLevel level, string path, string action, long linesChecked, long corruptedLines);

    [LoggerMessage(3, LogLevel.Warning, "Stream-existence filter {Path} has {CorruptedLines} corrupted lines ({CorruptedFraction:P3}; rebuilt above {Threshold:P1}); {RepairedLines} repaired now by setting them to all ones; first bad lines: {FirstBadLines}", EventName = "CorruptedLines")]
    public static partial void CorruptedLines(ILogger logger, string path, long corruptedLines, double corruptedFraction, double threshold, long repairedLines, string firstBadLines);

    [LoggerMessage(EventId = 4, Message = "Stream-existence filter {Path} is being rebuilt from the log: {Reason} ({Detail})", EventName = "RebuildStarted")]
    public static partial void RebuildStarted(ILogger logger, LogLevel level, string path, string reason, string detail);

    // At the level of Opened, which follows it.
    [LoggerMessage(EventId = 19, Message = "Stream-existence filter {Path} does not exist yet: creating it and filling it from the log", EventName = "Creating")]
    public static partial void Creating(ILogger logger, LogLevel level, string path);

    [LoggerMessage(5, LogLevel.Information, "Stream-existence filter {Path} is being resized from {FromSizeBytes} to {ToSizeBytes} bytes; the old file serves until the new one has caught up", EventName = "ResizeStarted")]
    public static partial void ResizeStarted(ILogger logger, string path, long fromSizeBytes, long toSizeBytes);

    [LoggerMessage(6, LogLevel.Information, "Stream-existence filter {Path} resized to {SizeBytes} bytes", EventName = "ResizeCompleted")]
    public static partial void ResizeCompleted(ILogger logger, string path, long sizeBytes);

    [LoggerMessage(22, LogLevel.Information, "Stream-existence filter {Path} rebuilt online ({Reason}): the fresh file serves now", EventName = "OnlineRebuildCompleted")]
    public static partial void OnlineRebuildCompleted(ILogger logger, string path, string reason);

    [LoggerMessage(7, LogLevel.Warning, "Stream-existence filter {Path}: checkpoint ignored ({Reason}); catching up from the start of the log", EventName = "CheckpointIgnored")]
    public static partial void CheckpointIgnored(ILogger logger, string path, string reason);

    [LoggerMessage(8, LogLevel.Information, "Catching up {Path}: {Records} records, {RecordsPerSecond:N0} records/s, {Percent:F1}%, ETA {Eta}", EventName = "CatchUpProgress")]
    public static partial void CatchUpProgress(ILogger logger, string path, long records, double recordsPerSecond, double percent, string eta);

    // Information in the hosted filter; eventfilterd logs it at Debug, one per layer caught up at start (TelemetryObserver's openedLevel).
    [LoggerMessage(EventId = 9, Message = "Stream-existence filter {Path} caught up: {Records} records in {ElapsedSeconds:F1} s, {RecordsPerSecond:N0} records/s; ready", EventName = "CatchUpCompleted")]
    public static partial void CatchUpCompleted(ILogger logger, LogLevel level, string path, long records, double elapsedSeconds, double recordsPerSecond);

    [LoggerMessage(10, LogLevel.Debug, "Stream-existence filter {Path} checkpointed at {Position}: {BytesFlushed} bytes flushed in {FlushMilliseconds:F1} ms", EventName = "CheckpointWritten")]
    public static partial void CheckpointWritten(ILogger logger, string path, long position, long bytesFlushed, double flushMilliseconds);

    [LoggerMessage(20, LogLevel.Debug, "Stream-existence filter {Path}: journal folded into the file: {BytesWritten} bytes written in {FoldMilliseconds:F1} ms", EventName = "JournalFolded")]
    public static partial void JournalFolded(ILogger logger, string path, long bytesWritten, double foldMilliseconds);

    [LoggerMessage(21, LogLevel.Warning, "Stream-existence filter {Path}: its journal is damaged ({Detail}); nothing after the damage is used, and catch-up re-reads the log from the last position committed before it", EventName = "JournalDamaged")]
    public static partial void JournalDamaged(ILogger logger, string path, string detail);

    [LoggerMessage(11, LogLevel.Warning, "Stream-existence filter {Path}: the log was truncated; checkpoint moved back from {FromPosition} to {ToPosition}", EventName = "Truncated")]
    public static partial void Truncated(ILogger logger, string path, long fromPosition, long toPosition);

    [LoggerMessage(12, LogLevel.Error, "Stream-existence filter {Path}: background work failed (a failed catch-up answers \"maybe\" until the host restarts; a failed resize or online rebuild leaves the old file serving): {Message}", EventName = "BackgroundWorkFailed")]
    public static partial void BackgroundWorkFailed(ILogger logger, string path, string message, Exception error);

    // One line, without the exception: a known cause's message says what to do, and a stack trace would bury it. The
    // exception goes to OpenFailedDetail, at Debug.
    [LoggerMessage(13, LogLevel.Critical, "Stream-existence filter {Path} could not be opened, so the host stops: {Message}", EventName = "OpenFailed")]
    public static partial void OpenFailed(ILogger logger, string path, string message);

    [LoggerMessage(40, LogLevel.Debug, "Stream-existence filter {Path}: the failure that stopped the open, with its stack", EventName = "OpenFailedDetail")]
    public static partial void OpenFailedDetail(ILogger logger, string path, Exception error);

    [LoggerMessage(14, LogLevel.Error, "Stream-existence filter {Path}: checkpoint at {Position} failed: {Message}", EventName = "CheckpointFailed")]
    public static partial void CheckpointFailed(ILogger logger, string path, long position, string message, Exception error);

    [LoggerMessage(15, LogLevel.Information, "Stream-existence filter disabled ({SizeKey} is 0): every lookup answers \"maybe\"", EventName = "Disabled")]
    public static partial void Disabled(ILogger logger, string sizeKey);

    [LoggerMessage(16, LogLevel.Information, "Stream-existence filter {Path} stopped; final checkpoint at {Position}", EventName = "Stopped")]
    public static partial void Stopped(ILogger logger, string path, long? position);

    [LoggerMessage(17, LogLevel.Warning, "Stream-existence filter {Path}: the host's shutdown timeout expired before its background work ended ({Unfinished} still running); checkpoint at {Position}; the file is closed when that work ends, or by the process's exit, and the next start catches up from the checkpoint", EventName = "StopTimedOut")]
    public static partial void StopTimedOut(ILogger logger, string path, string unfinished, long? position);

    [LoggerMessage(23, LogLevel.Error, "Stream-existence filter {Path}: the host broke the host contract ({Violation}): {Detail} Further {Violation} violations are counted in eventfilter.host_contract.violations, not logged.", EventName = "HostContractViolated")]
    public static partial void HostContractViolated(ILogger logger, string path, string violation, string detail);

    [LoggerMessage(30, LogLevel.Error, "Stream-existence filter {Path}: the host's log broke its rules ({Violation}): {Detail}", EventName = "LogContractViolated")]
    public static partial void LogContractViolated(ILogger logger, string path, string violation, string detail);

    [LoggerMessage(31, LogLevel.Error, "Stream-existence filter {Path}: the host's log has failed every call for {Seconds:F1} s, the latest with {ErrorType}: {Message}. The filter retries with a back-off and goes on by itself when the log answers; meanwhile it answers \"maybe\" while catching up, and from what it has read while following", EventName = "LogUnavailable")]
    public static partial void LogUnavailable(ILogger logger, string path, double seconds, string errorType, string message, Exception error);

    [LoggerMessage(32, LogLevel.Information, "Stream-existence filter {Path}: the host's log answers and keeps its rules again, after {Seconds:F1} s", EventName = "LogRecovered")]
    public static partial void LogRecovered(ILogger logger, string path, double seconds);

    [LoggerMessage(33, LogLevel.Debug, "Stream-existence filter {Path}: a call to the host's log failed ({ErrorType}: {Message}); retrying", EventName = "LogReadFailed")]
    public static partial void LogReadFailed(ILogger logger, string path, string errorType, string message);

    [LoggerMessage(18, LogLevel.Debug, "Stream-existence filter statistics: {FillRatio:P2} of bits set, about {EstimatedNames:N0} names, estimated false-positive rate {FalsePositiveRate:P3}, {AllOnesLines} all-ones lines", EventName = "Statistics")]
    public static partial void Statistics(ILogger logger, double fillRatio, double estimatedNames, double falsePositiveRate, long allOnesLines);
}
