using System.Text;
using EventFilter.Hosting;
using EventFilter.PostgreSql.End;
using EventFilter.PostgreSql.Table;
using Npgsql;

namespace EventFilter.PostgreSql;

/// <summary>
/// The events table as the filter reads it: rows below the safe end, in position order, a record ending at its
/// position + 1. The same end is the checkpoint position (every add of a row below it returned before its transaction
/// committed), and the filter following the table wakes when the end moves.
/// </summary>
internal sealed class PostgreSqlStreamLog(NpgsqlDataSource database, EventsTable table, SafeEnd end) : IStreamNameLog, ICheckpointPositionSource, IStreamNameLogSignal
{
    public long EndPosition => end.Value;

    public long SafeCheckpointPosition => end.Value;

    public ValueTask WaitForAppendAsync(long endPosition, CancellationToken cancellationToken) => end.WhenPastAsync(endPosition, cancellationToken);

    public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long safeEnd = end.Value; // sampled once: the rows below it are final, so the query sees all of them
        batch.NextPosition = fromPosition;
        int limit = batch.Remaining;
        if (fromPosition >= safeEnd || limit == 0)
        {
            return;
        }

        await using NpgsqlCommand command = database.CreateCommand(table.ReadRange);
        command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = fromPosition });
        command.Parameters.Add(new NpgsqlParameter<long> { TypedValue = safeEnd });
        command.Parameters.Add(new NpgsqlParameter<int> { TypedValue = limit });
        await using NpgsqlDataReader rows = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        byte[] name = new byte[256];
        int read = 0;
        while (await rows.ReadAsync(cancellationToken).ConfigureAwait(false))
        {
            read++;
            string stream = rows.GetString(1);
            if (Encoding.UTF8.GetMaxByteCount(stream.Length) > name.Length)
            {
                name = new byte[Encoding.UTF8.GetMaxByteCount(stream.Length)];
            }

            if (!batch.TryAdd(name.AsSpan(0, Encoding.UTF8.GetBytes(stream, name))))
            {
                return; // the batch's bytes are full: this row is read again next time
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
