namespace EventFilter.PostgreSql.Table;

/// <summary>
/// The events table as the options name it, with its names quoted once (any identifier a user chose is safe in SQL)
/// and the statements the package runs over it. The sequence is found at start by <see cref="TableCheck"/>.
/// </summary>
internal sealed class EventsTable
{
    public EventsTable(PostgreSqlStreamLogOptions options)
    {
        QualifiedName = $"{Quote(options.Schema)}.{Quote(options.Table)}";
        Position = Quote(options.PositionColumn);
        Stream = Quote(options.StreamColumn);
        Channel = options.Channel;
        Options = options;
    }

    public PostgreSqlStreamLogOptions Options { get; }

    /// <summary><c>"schema"."table"</c>.</summary>
    public string QualifiedName { get; }

    public string Position { get; }

    public string Stream { get; }

    /// <summary>The LISTEN/NOTIFY channel; empty when notifications are off.</summary>
    public string Channel { get; }

    /// <summary>The position column's sequence, as <c>pg_get_serial_sequence</c> names it; set by the start check.</summary>
    public string Sequence { get; set; } = "";

    /// <summary>Rows in [$1, $2) in position order, at most $3 of them: a read of the filter's batch.</summary>
    public string ReadRange => $"select {Position}, {Stream} from {QualifiedName} where {Position} >= $1 and {Position} < $2 order by {Position} limit $3";

    /// <summary>Taken first by every appending transaction: see <see cref="End.HighWaterMark"/> for why.</summary>
    public const string TakeTransactionId = "select pg_current_xact_id()";

    /// <summary>After a commit: wakes every process listening.</summary>
    public const string Notify = "select pg_notify($1, '')";

    public static string Quote(string identifier) => "\"" + identifier.Replace("\"", "\"\"", StringComparison.Ordinal) + "\"";
}
