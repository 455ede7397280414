namespace EventLog.Server.Logging;

/// <summary>
/// The server's own log lines (docs/server.md, "What it prints"). Event ids from 100, clear of the filter's (below 100);
/// stable, so alerts may key on them.
/// </summary>
internal static partial class Log
{
    [LoggerMessage(101, LogLevel.Information, "Opening the event log in {DataDirectory}", EventName = "OpeningLog")]
    public static partial void OpeningLog(ILogger logger, string dataDirectory);

    [LoggerMessage(102, LogLevel.Information, "Event log opened in {ElapsedMilliseconds} ms: {Segments} segment file(s), log end at byte {EndPosition}; index: {IndexFiles} index file(s), {ReplayedRecords} records replayed from the log", EventName = "LogOpened")]
    public static partial void LogOpened(ILogger logger, long elapsedMilliseconds, int segments, long endPosition, int indexFiles, long replayedRecords);

    [LoggerMessage(103, LogLevel.Warning, "Cut {TruncatedBytes} bytes of torn tail from the log at byte {EndPosition}: an append that was never acknowledged, from a crash", EventName = "TornTailCut")]
    public static partial void TornTailCut(ILogger logger, long truncatedBytes, long endPosition);

    [LoggerMessage(104, LogLevel.Warning, "Index files dropped and rebuilt from the log: {Reason}", EventName = "IndexDiscarded")]
    public static partial void IndexDiscarded(ILogger logger, string reason);

    [LoggerMessage(105, LogLevel.Information, "Appends open; the stream-existence filter is {FilterState} (until it is ready, every lookup walks the index)", EventName = "AppendsOpen")]
    public static partial void AppendsOpen(ILogger logger, string filterState);

    [LoggerMessage(106, LogLevel.Information, "Appends stopped; the log is durable to byte {EndPosition}", EventName = "AppendsStopped")]
    public static partial void AppendsStopped(ILogger logger, long endPosition);

    [LoggerMessage(107, LogLevel.Information, "Event log closed at byte {EndPosition}", EventName = "LogClosed")]
    public static partial void LogClosed(ILogger logger, long endPosition);

    [LoggerMessage(108, LogLevel.Information, "EventLog server listening on {Urls} (Ctrl+C stops it)", EventName = "Listening")]
    public static partial void Listening(ILogger logger, string urls);

    [LoggerMessage(109, LogLevel.Information, "Shutting down: finishing requests in flight, then appends stop, the filter takes its final checkpoint and the log closes", EventName = "ShuttingDown")]
    public static partial void ShuttingDown(ILogger logger);

    [LoggerMessage(111, LogLevel.Information, "Data directory {DataDirectory}: log/ and index/ for the log, {FilterDirectory} for the stream-existence filter ({FilterSize}, {FilterState}), logs/ for these lines", EventName = "DataLayout")]
    public static partial void DataLayout(ILogger logger, string dataDirectory, string filterDirectory, string filterSize, string filterState);

    // One line, without the exception: its message names the cause (docs/operations.md, "Start-up failures"). The
    // exception goes to OpenFailedDetail, at Debug.
    [LoggerMessage(113, LogLevel.Critical, "The event log in {DataDirectory} could not be opened, so the server stops: {Message}", EventName = "OpenFailed")]
    public static partial void OpenFailed(ILogger logger, string dataDirectory, string message);

    [LoggerMessage(114, LogLevel.Debug, "The event log: the failure that stopped its open, with its stack", EventName = "OpenFailedDetail")]
    public static partial void OpenFailedDetail(ILogger logger, Exception error);

    [LoggerMessage(112, LogLevel.Information, "API: POST and GET /streams/{{stream}}, GET /filter, GET /filter/streams/{{stream}}, GET /health, GET /metrics (docs/server.md)", EventName = "Endpoints")]
    public static partial void Endpoints(ILogger logger);
}
