using System.Text;
using EventFilter;
using EventFilter.Hosting;
using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// The events table as the filter reads it: records up to the safe end (<see cref="CommittedEnd"/>), in position
/// order. The same end is the hosted filter's checkpoint position: the host adds each record before its transaction
/// commits, so every record below the end has been added (docs/design.md, "Host contract", rule 3).
/// </summary>
public sealed class PostgresStreamLog(NpgsqlDataSource database, CommittedEnd end) : IStreamNameLog, ICheckpointPositionSource
{
    private const string Read = """
        select global_position, stream_id from events
        where global_position >= $1 and global_position < $2
        order by global_position
        limit $3
        """;

    /// <summary>The safe end, as last refreshed.</summary>
    public long EndPosition => end.Value;

    /// <summary>The safe end too: every add of a record below it has returned.</summary>
    public long SafeCheckpointPosition => end.Value;

    public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long safeEnd = end.Value; // sampled once: the rows below it are final, so the query sees all of them
        batch.NextPosition = fromPosition;
        int limit = batch.Remaining;
        if (fromPosition >= safeEnd || limit == 0)
        {
            return;
        }

        await using NpgsqlCommand command = database.CreateCommand(Read);
        command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = fromPosition });
        command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = safeEnd });
        command.Parameters.Add(new NpgsqlParameter<int> { TypedValue = limit });
        await using NpgsqlDataReader rows = await command.ExecuteReaderAsync(cancellationToken);
        byte[] name = new byte[256];
        int read = 0;
        while (await rows.ReadAsync(cancellationToken))
        {
            read++;
            string stream = rows.GetString(1);
            if (Encoding.UTF8.GetMaxByteCount(stream.Length) > name.Length)
            {
                name = new byte[Encoding.UTF8.GetMaxByteCount(stream.Length)];
            }

            if (!batch.TryAdd(name.AsSpan(0, Encoding.UTF8.GetBytes(stream, name))))
            {
                return; // the names' bytes are full: this row is read again next time
            }

            batch.NextPosition = rows.GetInt64(0) + 1; // the record's end: what its add was given
        }

        if (read < limit)
        {
            // No more rows below the safe end, and none can commit there later: what is left of the range is gaps.
            batch.NextPosition = safeEnd;
        }
    }
}
