using EventFilter;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// The kit's filter, with a gate on the add of one stream: the store's transaction for it has taken its position and
/// is inside <c>Add</c>, before its commit, when the gate stops it. While it is held, another writer commits a later
/// position, the store reads its end, and the gate waits for the kit's checkpoints to reach that end; then the add
/// goes on. A safe end stays below the held position; an end that ignores in-flight transactions jumps over it, and
/// the held add arrives below a checkpoint that claimed it. No timing decides which: each step waits for the last.
/// </summary>
internal sealed class GatedFilter(IStreamExistenceFilter inner, string gatedStream, NpgsqlDataSource database, CommittedEnd end) : IStreamExistenceFilter
{
    /// <summary>The end the store read while the gated add was held, and the gated record's end; set once the gate opened.</summary>
    public (long EndWhileHeld, long HeldRecordEnd)? Seen { get; private set; }

    public FilterState State => inner.State;

    public Task WhenReady => inner.WhenReady;

    public long? CheckpointPosition => inner.CheckpointPosition;

    public bool MightExist(ReadOnlySpan<char> streamName) => inner.MightExist(streamName);

    public bool MightExist(ReadOnlySpan<byte> utf8StreamName) => inner.MightExist(utf8StreamName);

    public void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results) => inner.MightExist(streamNames, results);

    public void Add(ReadOnlySpan<byte> utf8StreamName, long recordEnd) => Add(System.Text.Encoding.UTF8.GetString(utf8StreamName), recordEnd);

    public void Add(ReadOnlySpan<char> streamName, long recordEnd)
    {
        if (Seen is null && streamName.SequenceEqual(gatedStream))
        {
            // Add is synchronous: hold the store's writer here while the steps run on the pool.
            Seen = Task.Run(() => HoldAsync(recordEnd)).WaitAsync(TimeSpan.FromMinutes(2)).GetAwaiter().GetResult();
        }

        inner.Add(streamName, recordEnd);
    }

    public void Checkpoint(long position) => inner.Checkpoint(position);

    public void TruncateTo(long position) => inner.TruncateTo(position);

    private async Task<(long, long)> HoldAsync(long heldRecordEnd)
    {
        // Another writer (another process, say) commits a later position while the gated transaction is in flight,
        // adding its own stream before its commit as the contract asks.
        await using (NpgsqlConnection connection = await database.OpenConnectionAsync())
        await using (NpgsqlTransaction transaction = await connection.BeginTransactionAsync())
        {
            await using var takeId = new NpgsqlCommand("select pg_current_xact_id()", connection, transaction);
            await takeId.ExecuteNonQueryAsync();
            await using var insert = new NpgsqlCommand(
                "insert into events (stream_id, version, type, data) values ('neighbour-of-the-gate', 0, 'Appended', '{}') returning global_position",
                connection, transaction);
            long position = (long)(await insert.ExecuteScalarAsync())!;
            inner.Add("neighbour-of-the-gate", position + 1);
            await transaction.CommitAsync();
        }

        await end.RefreshAsync(); // as the store's own commits do: the first reading sees, the second settles
        await end.RefreshAsync();
        long endWhileHeld = end.Value;
        await Poll.UntilAsync(() => (inner.CheckpointPosition ?? -1) >= endWhileHeld, $"a checkpoint at the store's end ({endWhileHeld})");
        return (endWhileHeld, heldRecordEnd);
    }
}
