using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// The safe end of the events table: one past the highest position P such that every transaction that took a position
/// up to P has ended, committed or rolled back. No row can commit below it later, so the filter may read up to it and
/// checkpoint there. Derived from the sequence and PostgreSQL's transaction snapshots, with no timeout; why, and why
/// not max(global_position): docs/hosting-guide.md, "A database log".
/// </summary>
/// <remarks>
/// Two facts carry it. An appending transaction takes its transaction id before its first position (the first
/// statement of <see cref="AppendTransaction"/> is <c>pg_current_xact_id()</c>), and the sequence has CACHE 1, so
/// numbers are handed out in order. So a position seen allocated before a snapshot was taken belongs to a transaction
/// whose id is below that snapshot's xmax; once a later snapshot's xmin (the oldest transaction still running) reaches
/// that xmax, all of them have ended. A snapshot is taken when a statement starts, before it reads the sequence, so
/// each reading pairs the allocation seen by the reading before it (or the caller's own positions) with its own
/// snapshot, and settles earlier pairs.
/// </remarks>
public sealed class HighWaterMark(NpgsqlDataSource database) : CommittedEnd(database)
{
    // Transaction ids as xid8: 64 bits with the epoch, so no wraparound to mind.
    private const string Reading = $"""
        select case when is_called then last_value else last_value - 1 end,
               pg_snapshot_xmin(pg_current_snapshot())::text::bigint,
               pg_snapshot_xmax(pg_current_snapshot())::text::bigint
        from {EventsTable.Sequence}
        """;

    // A long transaction leaves a pair pending per reading; past this many the newest is replaced: settled later, never early.
    private const int MaxPending = 64;

    // (positions allocated up to, settled once xmin reaches this xmax), oldest first; both only grow.
    private readonly List<(long AllocatedUpTo, long Xmax)> _pending = [];
    private long _allocatedSeen;
    private long _settled;

    protected override async Task<long> ReadAsync(NpgsqlConnection connection, long allocatedUpTo, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand(Reading, connection);
        await using NpgsqlDataReader row = await command.ExecuteReaderAsync(cancellationToken);
        await row.ReadAsync(cancellationToken);
        (long allocated, long xmin, long xmax) = (row.GetInt64(0), row.GetInt64(1), row.GetInt64(2));

        if (_pending.Count > 0 && (_pending.Count >= MaxPending || _pending[^1].Xmax == xmax))
        {
            // This pair waits for as much as the newest one or more, and covers as much or more: replace it (later, never unsafe).
            _pending.RemoveAt(_pending.Count - 1);
        }

        _pending.Add((Math.Max(_allocatedSeen, allocatedUpTo), xmax));
        int ended = _pending.FindIndex(pair => pair.Xmax > xmin);
        ended = ended < 0 ? _pending.Count : ended;
        if (ended > 0)
        {
            _settled = Math.Max(_settled, _pending[ended - 1].AllocatedUpTo);
            _pending.RemoveRange(0, ended);
        }

        _allocatedSeen = Math.Max(_allocatedSeen, allocated);
        return _settled + 1;
    }
}
