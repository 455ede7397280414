using Microsoft.Extensions.Logging;

namespace EventFilter.PostgreSql.Telemetry;

/// <summary>What the package logs, under the category <c>EventFilter.PostgreSql</c>. Event ids are stable (docs/telemetry.md).</summary>
internal static partial class Log
{
    public const string Category = "EventFilter.PostgreSql";

    [LoggerMessage(101, LogLevel.Information, "Events table {Table} checked: positions from {Sequence}, safe end {End}, notifications on '{Channel}'", EventName = "TableChecked")]
    public static partial void TableChecked(ILogger logger, string table, string sequence, long end, string channel);

    [LoggerMessage(102, LogLevel.Warning, "Reading the events table's safe end failed; the filter's end stays at {End} and the reading is retried every poll: {Reason}", EventName = "EndReadFailed")]
    public static partial void EndReadFailed(ILogger logger, long end, string reason);

    [LoggerMessage(103, LogLevel.Information, "The events table's safe end is read again ({End})", EventName = "EndReadRecovered")]
    public static partial void EndReadRecovered(ILogger logger, long end);

    [LoggerMessage(104, LogLevel.Warning, "Listening for commits on '{Channel}' failed; followers fall back to the poll until it reconnects: {Reason}", EventName = "ListenFailed")]
    public static partial void ListenFailed(ILogger logger, string channel, string reason);

    [LoggerMessage(105, LogLevel.Information, "Listening for commits on '{Channel}' again", EventName = "ListenRecovered")]
    public static partial void ListenRecovered(ILogger logger, string channel);
}
