using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// The safe end of the events table: one past the highest position P such that every transaction that took a position
/// up to P has ended, committed or rolled back. No row can commit below it later, so the filter may read up to it and
/// checkpoint there. Derived from the sequence and PostgreSQL's transaction ids, with no timeout; why, and why not
/// max(global_position): docs/hosting-guide.md, "A database log".
/// </summary>
/// <remarks>
/// Two facts carry it. An appending transaction takes its transaction id before its first position (the first
/// statement of <see cref="AppendTransaction"/> is <c>pg_current_xact_id()</c>), and the sequence has CACHE 1, so
/// numbers are handed out in order. A reading reads the sequence, then takes a transaction id of its own: every
/// transaction holding a position it saw allocated took its id earlier, so below the reading's. Once a later
/// snapshot's xmin (the oldest transaction id still running) reaches the reading's id, all of them have ended. The
/// snapshot's xmax would not do: it is one past the latest transaction to complete, and a transaction still running
/// may hold a higher id. A reading's own id costs a commit record, which is not flushed (it wrote nothing else).
/// </remarks>
public sealed class HighWaterMark(NpgsqlDataSource database) : CommittedEnd(database)
{
    // Transaction ids as xid8: 64 bits with the epoch, so no wraparound to mind. The select list is computed after the
    // sequence's row is read, so the reading's id comes after what it saw allocated; xmin is from the statement's start.
    private const string Reading = $"""
        select case when is_called then last_value else last_value - 1 end,
               pg_snapshot_xmin(pg_current_snapshot())::text::bigint,
               pg_current_xact_id()::text::bigint
        from {EventsTable.Sequence}
        """;

    // A long transaction leaves a pair pending per reading; past this many the newest is replaced: settled later, never early.
    private const int MaxPending = 64;

    // (positions allocated up to, settled once xmin reaches this transaction id), oldest first; both only grow.
    private readonly List<(long AllocatedUpTo, long Id)> _pending = [];
    private long _settled;

    protected override async Task<long> ReadAsync(NpgsqlConnection connection, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(Reading, connection);
        await using NpgsqlDataReader row = await command.ExecuteReaderAsync(cancellationToken);
        await row.ReadAsync(cancellationToken);
        (long allocated, long xmin, long id) = (row.GetInt64(0), row.GetInt64(1), row.GetInt64(2));

        if (_pending.Count >= MaxPending)
        {
            _pending.RemoveAt(_pending.Count - 1); // this pair waits for more and covers more than the newest one
        }

        _pending.Add((allocated, id));
        int ended = _pending.FindIndex(pair => pair.Id > xmin);
        ended = ended < 0 ? _pending.Count : ended;
        if (ended > 0)
        {
            _settled = Math.Max(_settled, _pending[ended - 1].AllocatedUpTo);
            _pending.RemoveRange(0, ended);
        }

        return _settled + 1;
    }
}
