namespace EventFilter.PostgreSql;

/// <summary>
/// Where the events table is and how to watch it. Bound from configuration by
/// <c>AddPostgreSqlStreamLog(section)</c> (usually <see cref="SectionName"/>) or set in code; validated when the host
/// starts, and the table itself checked against them before the filter opens.
/// </summary>
public sealed class PostgreSqlStreamLogOptions
{
    /// <summary>The configuration section the options are usually read from.</summary>
    public const string SectionName = "StreamExistenceFilter:PostgreSql";

    /// <summary>
    /// The connection string. When unset, the <c>NpgsqlDataSource</c> registered in the host's services is used.
    /// The processes of one table must all connect to its primary: a reading of the safe end takes a transaction id.
    /// </summary>
    public string? ConnectionString { get; set; }

    /// <summary>The schema of the table.</summary>
    /// <value>The default value is <c>public</c>.</value>
    public string Schema { get; set; } = "public";

    /// <summary>The events table.</summary>
    /// <value>The default value is <c>events</c>.</value>
    public string Table { get; set; } = "events";

    /// <summary>
    /// The position column: a <c>bigint</c> whose default takes the next value of a sequence with <c>CACHE 1</c>
    /// (<c>bigserial</c>, or <c>generated ... as identity</c>).
    /// </summary>
    /// <value>The default value is <c>global_position</c>.</value>
    public string PositionColumn { get; set; } = "global_position";

    /// <summary>The stream column: <c>text</c> or <c>varchar</c>, the stream's name.</summary>
    /// <value>The default value is <c>stream_id</c>.</value>
    public string StreamColumn { get; set; } = "stream_id";

    /// <summary>
    /// The channel appending processes <c>NOTIFY</c> after each commit and every process <c>LISTEN</c>s on, so that
    /// followers wake at once. Empty turns notifications off: the poll alone then moves the end.
    /// </summary>
    /// <value>The default value is <c>eventfilter_</c> followed by the table's name.</value>
    public string? NotifyChannel { get; set; }

    /// <summary>
    /// How often the safe end is read when nothing else moves it: a transaction in flight that ended with no commit
    /// of ours after it, a lost notification, a listener reconnecting. Each reading takes a transaction id.
    /// </summary>
    /// <value>The default value is 1 second; 10 milliseconds to 1 minute.</value>
    public TimeSpan PollInterval { get; set; } = TimeSpan.FromSeconds(1);

    /// <summary>The channel in use: <see cref="NotifyChannel"/>, or its default.</summary>
    internal string Channel => NotifyChannel ?? $"eventfilter_{Table}";

    /// <summary>Values the configuration held that did not convert, each a line for the validator.</summary>
    internal List<string> BindingErrors { get; } = [];

    /// <summary>The section's path and a colon, so that errors name the key as it was configured (set in code: the usual section).</summary>
    internal string KeyPrefix { get; set; } = SectionName + ":";

    /// <summary>Set by tests only: leave the hosted filter's <c>FollowLog</c> as configured (a mutation: a process that does not follow).</summary>
    internal bool LeaveFollowingOff { get; set; }
}
