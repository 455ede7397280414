using Npgsql;

namespace EventFilter.PostgreSql.Table;

/// <summary>
/// What the package needs of the events table, checked before the filter opens: a failure is one line saying what to
/// change (<see cref="PostgreSqlStreamLogStartException"/>), never a wrong end found later.
/// </summary>
internal static class TableCheck
{
    // pg_current_xact_id and pg_snapshot_xmin, which the safe end reads, came in PostgreSQL 13.
    private const int OldestServer = 130000;

    private const string Describe = """
        select current_setting('server_version_num')::int,
               to_regclass($1) is not null,
               (select format_type(atttypid, atttypmod) from pg_attribute where attrelid = to_regclass($1) and attname = $2 and attnum > 0 and not attisdropped),
               (select format_type(atttypid, atttypmod) from pg_attribute where attrelid = to_regclass($1) and attname = $3 and attnum > 0 and not attisdropped)
        """;

    // An identity column, or a default that takes nextval: a sequence that merely belongs to the column hands out nothing.
    private const string TakesFromSequence = """
        select a.attidentity <> '' or coalesce(pg_get_expr(d.adbin, d.adrelid) like 'nextval(%', false)
        from pg_attribute a left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
        where a.attrelid = to_regclass($1) and a.attname = $2
        """;

    private const string DescribeSequence = """
        select s.seq, (select seqcache from pg_sequence where seqrelid = s.seq::regclass),
               has_table_privilege($1, 'SELECT'), has_sequence_privilege(s.seq, 'SELECT')
        from (select pg_get_serial_sequence($1, $2) as seq) s
        """;

    /// <summary>Checks the table; sets <see cref="EventsTable.Sequence"/>.</summary>
    public static async Task RunAsync(NpgsqlDataSource database, EventsTable table, CancellationToken cancellationToken)
    {
        PostgreSqlStreamLogOptions options = table.Options;
        string key = options.KeyPrefix.TrimEnd(':');
        await using NpgsqlConnection connection = await database.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
        await using (var describe = new NpgsqlCommand(Describe, connection) { Parameters = { new() { Value = table.QualifiedName }, new() { Value = options.PositionColumn }, new() { Value = options.StreamColumn } } })
        await using (NpgsqlDataReader row = await describe.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false))
        {
            await row.ReadAsync(cancellationToken).ConfigureAwait(false);
            if (row.GetInt32(0) < OldestServer)
            {
                throw Fail($"PostgreSQL {row.GetInt32(0) / 10000} is too old: the safe end needs PostgreSQL 13 or later (pg_current_xact_id).");
            }

            if (!row.GetBoolean(1))
            {
                throw Fail($"The events table {table.QualifiedName} does not exist, or this role cannot see it: create it, or set {key}:Schema and {key}:Table to the table that holds the events.");
            }

            string? position = row.IsDBNull(2) ? null : row.GetString(2);
            string? stream = row.IsDBNull(3) ? null : row.GetString(3);
            if (position is null || stream is null)
            {
                (string missing, string setting) = position is null ? (options.PositionColumn, "PositionColumn") : (options.StreamColumn, "StreamColumn");
                throw Fail($"The events table {table.QualifiedName} has no column \"{missing}\": set {key}:{setting} to the column that holds it.");
            }

            if (position != "bigint")
            {
                throw Fail($"The position column {table.Position} of {table.QualifiedName} is {position}: it must be a bigint taken from a sequence (bigserial, or bigint generated always as identity).");
            }

            if (stream is not ("text" or "character varying") && !stream.StartsWith("character varying(", StringComparison.Ordinal))
            {
                throw Fail($"The stream column {table.Stream} of {table.QualifiedName} is {stream}: it must be text or varchar, the stream's name.");
            }
        }

        await using (var takes = new NpgsqlCommand(TakesFromSequence, connection) { Parameters = { new() { Value = table.QualifiedName }, new() { Value = options.PositionColumn } } })
        {
            if (await takes.ExecuteScalarAsync(cancellationToken).ConfigureAwait(false) is not true)
            {
                throw NoSequence(table);
            }
        }

        await using var sequence = new NpgsqlCommand(DescribeSequence, connection) { Parameters = { new() { Value = table.QualifiedName }, new() { Value = options.PositionColumn } } };
        await using NpgsqlDataReader seq = await sequence.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        await seq.ReadAsync(cancellationToken).ConfigureAwait(false);
        if (seq.IsDBNull(0))
        {
            throw NoSequence(table);
        }

        table.Sequence = seq.GetString(0);
        if (!seq.GetBoolean(2) || !seq.GetBoolean(3))
        {
            string what = !seq.GetBoolean(2) ? $"the table {table.QualifiedName}" : $"its sequence {table.Sequence}";
            throw Fail($"This role may not read {what}: GRANT SELECT ON {(seq.GetBoolean(2) ? "SEQUENCE " : "")}{(seq.GetBoolean(2) ? table.Sequence : table.QualifiedName)} TO the role in the connection string.");
        }

        // With a cache, each session hands out numbers from a block of its own: a number below the sequence's last value
        // can still be taken later, and no reading of the sequence says what is allocated (HighWaterMark).
        if (seq.GetInt64(1) != 1)
        {
            throw Fail($"The sequence {table.Sequence} has CACHE {seq.GetInt64(1)}; the safe end needs CACHE 1: ALTER SEQUENCE {table.Sequence} CACHE 1.");
        }
    }

    private static PostgreSqlStreamLogStartException NoSequence(EventsTable table) =>
        Fail($"The position column {table.Position} of {table.QualifiedName} takes no value from a sequence: make it bigserial, or bigint generated always as identity, so that positions are handed out in order.");

    private static PostgreSqlStreamLogStartException Fail(string message) => new(PostgreSqlStreamLogStartException.TableExitCode, message, null);
}
