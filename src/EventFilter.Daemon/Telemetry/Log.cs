using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// Every line eventfilterd logs, with the conventions of EventFilter.Hosting's Log (docs/telemetry.md): source-generated,
/// stable event ids (101 and up, apart from the hosting package's) and an EventName, its method's name. Listed in
/// docs/daemon.md, "Telemetry".
/// </summary>
internal static partial class Log
{
    [LoggerMessage(101, LogLevel.Information, "eventfilterd listening on unix:{Socket}{Tcp}, data in {DataDirectory}, log sync {LogSync}, auth {Auth}", EventName = "Listening")]
    public static partial void Listening(ILogger logger, string socket, string tcp, string dataDirectory, string logSync, string auth);

    [LoggerMessage(102, LogLevel.Information, "Opened {Filters} filters in {ElapsedMilliseconds:F1} ms", EventName = "FiltersOpened")]
    public static partial void FiltersOpened(ILogger logger, int filters, double elapsedMilliseconds);

    [LoggerMessage(103, LogLevel.Error, "Checkpoints are failing ({Message}); the adds stay in the digest logs and every tick tries again; logged once until they succeed", EventName = "CheckpointFailed")]
    public static partial void CheckpointFailed(ILogger logger, string message, Exception error);

    [LoggerMessage(117, LogLevel.Information, "Checkpoints succeed again after {Failures} failures over {Seconds:F0} s", EventName = "CheckpointsRecovered")]
    public static partial void CheckpointsRecovered(ILogger logger, long failures, double seconds);

    [LoggerMessage(104, LogLevel.Error, "Writing or syncing a digest log failed; the client's batch is not acknowledged and its connection is closed", EventName = "LogCommitFailed")]
    public static partial void LogCommitFailed(ILogger logger, Exception error);

    [LoggerMessage(105, LogLevel.Error, "A command failed on storage; it was answered with an error", EventName = "CommandStorageFailed")]
    public static partial void CommandStorageFailed(ILogger logger, Exception error);

    [LoggerMessage(106, LogLevel.Error, "A connection failed unexpectedly; it is closed", EventName = "ConnectionFailed")]
    public static partial void ConnectionFailed(ILogger logger, Exception error);

    // 107-111 were the layer files' lines; those are EventFilter.Hosting's now (category EventFilter, docs/telemetry.md),
    // and the ids stay retired so that an old alert never matches a new meaning.

    [LoggerMessage(112, LogLevel.Information, "Health is now {Status}: {Reason}", EventName = "HealthChanged")]
    public static partial void HealthChanged(ILogger logger, string status, string reason);

    [LoggerMessage(113, LogLevel.Warning, "Filter directory {Directory} is removed: its digest log is missing, shorter than its header or starts with zeros, so its create was cut before the header was on the disk (a crash or power loss during the create, or within a sync interval of it); what was acknowledged of it, the control log brings back", EventName = "UnwrittenFilterDropped")]
    public static partial void UnwrittenFilterDropped(ILogger logger, string directory);

    [LoggerMessage(120, LogLevel.Information, "{Layers} layers caught up from the start of their digest logs: their checkpoints were missing, unusable or of an earlier file, as a crash leaves them", EventName = "CheckpointsIgnoredAtStart")]
    public static partial void CheckpointsIgnoredAtStart(ILogger logger, int layers);

    [LoggerMessage(114, LogLevel.Information, "Replayed {Records} control-log records from before the stop: {Pending} filters without files yet, {Dropped} directories of dropped filters removed", EventName = "ControlLogReplayed")]
    public static partial void ControlLogReplayed(ILogger logger, int records, int pending, int dropped);

    [LoggerMessage(115, LogLevel.Warning, "Watchdog keep-alive withheld: the daemon did not answer its own PING on the socket; the service manager restarts it if this lasts beyond WatchdogSec", EventName = "WatchdogWithheld")]
    public static partial void WatchdogWithheld(ILogger logger);

    [LoggerMessage(116, LogLevel.Information, "Watchdog keep-alive resumed: the daemon answers on its socket again", EventName = "WatchdogResumed")]
    public static partial void WatchdogResumed(ILogger logger);

    [LoggerMessage(130, LogLevel.Error, "Accepting a connection failed ({Error}); the socket stays open and accepting is tried again in {PauseMilliseconds} ms (out of descriptors: raise LimitNOFILE or serve fewer filters or clients)", EventName = "AcceptFailed")]
    public static partial void AcceptFailed(ILogger logger, string error, long pauseMilliseconds);

    [LoggerMessage(131, LogLevel.Information, "Accepting connections again after {Failures} failed accepts", EventName = "AcceptResumed")]
    public static partial void AcceptResumed(ILogger logger, int failures);

    [LoggerMessage(132, LogLevel.Warning, "Out of file descriptors (RLIMIT_NOFILE {Limit}): each new client is accepted on a reserve descriptor, answered \"ERR max number of file descriptors reached\" and closed; the socket keeps listening (raise LimitNOFILE or serve fewer filters or clients)", EventName = "AcceptOverLimit")]
    public static partial void AcceptOverLimit(ILogger logger, long limit);

    [LoggerMessage(133, LogLevel.Warning, "New filters or restores refused at the file-descriptor limit: {Refusals} since the last warning (one a minute at most); the last: {Reason}", EventName = "DescriptorLimitRefused")]
    public static partial void DescriptorLimitRefused(ILogger logger, long refusals, string reason);

    [LoggerMessage(134, LogLevel.Critical, "Event loop {Loop} failed; eventfilterd ends at once (SIGABRT) for its service manager to restart it", EventName = "EventLoopFailed")]
    public static partial void EventLoopFailed(ILogger logger, int loop, Exception error);
}
