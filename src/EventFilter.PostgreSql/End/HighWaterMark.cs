using EventFilter.PostgreSql.Table;
using Npgsql;

namespace EventFilter.PostgreSql.End;

/// <summary>
/// The safe end of the events table: one past the highest position P such that every transaction that took a position
/// up to P has ended, committed or rolled back. No row can commit below it later, so the filter may read up to it and
/// checkpoint there. Derived from the sequence and transaction ids, with no timeout.
/// </summary>
/// <remarks>
/// Two facts carry it. An appending transaction takes its transaction id before its first position
/// (<see cref="PostgreSqlAppender"/> does, as its first statement), and the sequence has CACHE 1, so numbers are
/// handed out in order (<see cref="TableCheck"/>). A reading reads the sequence, then takes a transaction id of its
/// own: every transaction holding a position it saw allocated took its id earlier, so below the reading's. Once a
/// snapshot's xmin (the oldest transaction id still running) reaches the reading's id, all of them have ended; with
/// nothing older running, the reading's own snapshot settles it at once. The snapshot's xmax would not do: it is one
/// past the latest transaction to complete, and one still running may hold a higher id. A reading's id costs a commit
/// record, which is not flushed (the reading wrote nothing else).
/// </remarks>
internal sealed class HighWaterMark(EventsTable table) : EndReading
{
    // A long transaction leaves a pair pending per reading; past this many the newest is replaced: settled later, never early.
    private const int MaxPending = 64;

    // (positions allocated up to, settled once xmin reaches this transaction id, read when), oldest first.
    private readonly List<(long AllocatedUpTo, long Id, long ReadAt)> _pending = [];
    private long _settled;

    // Transaction ids as xid8: 64 bits with the epoch, so no wraparound to mind. The select list is computed after the
    // sequence's row is read, so the reading's id comes after what it saw allocated; xmin is from the statement's start.
    private string Reading => $"""
        select case when is_called then last_value else last_value - 1 end,
               pg_snapshot_xmin(pg_current_snapshot())::text::bigint,
               pg_current_xact_id()::text::bigint
        from {table.Sequence}
        """;

    public override async Task<long> ReadAsync(NpgsqlConnection connection, long timestamp, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(Reading, connection);
        await using NpgsqlDataReader row = await command.ExecuteReaderAsync(cancellationToken).ConfigureAwait(false);
        await row.ReadAsync(cancellationToken).ConfigureAwait(false);
        (long allocated, long xmin, long id) = (row.GetInt64(0), row.GetInt64(1), row.GetInt64(2));
        Allocated = Math.Max(Allocated, allocated);

        if (_pending.Count >= MaxPending)
        {
            // This pair waits for more and covers more than the newest one; the oldest keeps the time it was read.
            _pending.RemoveAt(_pending.Count - 1);
        }

        _pending.Add((allocated, id, timestamp));
        int ended = _pending.FindIndex(pair => pair.Id > xmin);
        ended = ended < 0 ? _pending.Count : ended;
        if (ended > 0)
        {
            _settled = Math.Max(_settled, _pending[ended - 1].AllocatedUpTo);
            _pending.RemoveRange(0, ended);
        }

        // Held: a pending pair whose positions are past what is settled (a pair with nothing new above it holds nothing).
        int holding = _pending.FindIndex(pair => pair.AllocatedUpTo > _settled);
        HeldSince = holding < 0 ? null : _pending[holding].ReadAt;
        return _settled + 1;
    }
}
