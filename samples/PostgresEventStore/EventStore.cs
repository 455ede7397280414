using EventFilter.PostgreSql;
using Npgsql;
using NpgsqlTypes;

namespace PostgresEventStore;

/// <summary>One event to append (its data as JSON), and what became of an append: appended with the stream's new version and its last event's position, or refused (the stream is at Version).</summary>
public sealed record EventData(string Type, string Json);
public readonly record struct AppendResult(bool Appended, long Version, long Position);

/// <summary>
/// Appends events to a stream if it is at the expected version (-1: no stream yet), one transaction per append, many
/// in flight. The stream's version is looked up only where the filter cannot say the stream is new; the appender
/// takes care of the rest (docs/hosting-guide.md, "A database log").
/// </summary>
public sealed class EventStore(PostgreSqlAppender appender)
{
    public const long NoStream = -1;

    public Task<AppendResult> AppendAsync(string stream, long expectedVersion, IReadOnlyList<EventData> events, CancellationToken cancellationToken) =>
        appender.AppendAsync(async (append, cancel) =>
        {
            long version = NoStream;
            if (expectedVersion != NoStream || append.MightExist(stream))
            {
                await using NpgsqlCommand lookUp = append.CreateCommand("select max(version) from events where stream_id = $1");
                lookUp.Parameters.Add(new() { Value = stream });
                version = await lookUp.ExecuteScalarAsync(cancel) as long? ?? NoStream;
            }

            if (version != expectedVersion)
            {
                return new AppendResult(false, version, 0);
            }

            // unique (stream_id, version) turns a race for a version, or a stream another process created since this
            // filter last heard, into 23505: the appender runs this again, and MightExist says "maybe".
            await using NpgsqlCommand insert = append.CreateCommand("""
                insert into events (stream_id, version, type, data)
                select $1, $2 + n, t, d from unnest($3::text[], $4::jsonb[]) with ordinality as e(t, d, n)
                returning global_position
                """);
            insert.Parameters.Add(new() { Value = stream });
            insert.Parameters.Add(new() { Value = version });
            insert.Parameters.Add(new() { Value = events.Select(e => e.Type).ToArray() });
            insert.Parameters.Add(new() { Value = events.Select(e => e.Json).ToArray(), NpgsqlDbType = NpgsqlDbType.Array | NpgsqlDbType.Jsonb });
            long position = 0;
            await using NpgsqlDataReader rows = await insert.ExecuteReaderAsync(cancel);
            while (await rows.ReadAsync(cancel))
            {
                position = rows.GetInt64(0);
                append.Added(stream, position); // before the commit, which the appender makes once this returns
            }

            return new AppendResult(true, version + events.Count, position);
        }, cancellationToken);
}
