using System.Text;
using EventFilter.PostgreSql.End;
using EventFilter.PostgreSql.Table;
using Microsoft.Extensions.Time.Testing;
using Npgsql;

namespace EventFilter.PostgreSql.Tests;

/// <summary>
/// The safe end over a real database, with transactions this test holds open: it stays below an in-flight position
/// however many later ones commit, passes a rolled-back one, says how long it has been held, and a read of a range
/// with no rows left below the end moves to the end.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class SafeEndTests(PostgresServer server) : IAsyncLifetime
{
    private readonly FakeTimeProvider _time = new();
    private NpgsqlDataSource _database = null!;
    private EventsTable _table = null!;
    private SafeEnd _end = null!;

    public async Task InitializeAsync()
    {
        _database = await server.CreateDatabaseAsync();
        _table = new EventsTable(new PostgreSqlStreamLogOptions()) { Sequence = "public.events_global_position_seq" };
        _end = new SafeEnd(_database, new HighWaterMark(_table), _time);
    }

    public async Task DisposeAsync() => await _database.DisposeAsync();

    [Fact]
    public async Task The_end_stays_below_a_transaction_in_flight_until_it_ends_and_says_for_how_long()
    {
        await using Writer held = await Writer.InsertAsync(_database, "held");
        await using (Writer later = await Writer.InsertAsync(_database, "later"))
        {
            await later.CommitAsync();
            await ReadTwiceAsync();
        }

        Assert.True(_end.Value <= held.Position, $"the end {_end.Value} passed the position {held.Position} still in flight");
        Assert.Equal(held.Position + 1, _end.Allocated);
        _time.Advance(TimeSpan.FromSeconds(7));
        Assert.Equal(TimeSpan.FromSeconds(7), _end.HeldFor);

        await held.CommitAsync();
        await _end.RefreshAsync(); // nothing older runs now: one reading settles
        Assert.Equal(held.Position + 2, _end.Value); // both settled: just past "later"
        Assert.Equal(TimeSpan.Zero, _end.HeldFor);
    }

    [Fact]
    public async Task A_rolled_back_position_is_a_gap_the_end_passes_and_a_read_skips()
    {
        long kept;
        await using (Writer first = await Writer.InsertAsync(_database, "kept"))
        {
            await first.CommitAsync();
            kept = first.Position;
        }

        await using (Writer rolledBack = await Writer.InsertAsync(_database, "rolled-back"))
        {
            // disposed without a commit: rolled back, its position never commits
        }

        await ReadTwiceAsync();
        Assert.Equal(kept + 2, _end.Value);

        var log = new PostgreSqlStreamLog(_database, _table, _end);
        var batch = new StreamNameBatch(maxRecords: 16);
        await log.ReadAsync(0, batch, CancellationToken.None);
        Assert.Equal("kept", Encoding.UTF8.GetString(batch.Names));
        Assert.Equal(_end.Value, batch.NextPosition); // no row left below the end: the read moves to it
    }

    [Fact]
    public async Task A_wait_for_the_end_to_pass_a_position_completes_when_a_reading_moves_it_there()
    {
        await ReadTwiceAsync();
        long before = _end.Value;
        ValueTask waiting = _end.WhenPastAsync(before, CancellationToken.None);
        Assert.False(waiting.IsCompleted);

        await using (Writer writer = await Writer.InsertAsync(_database, "new"))
        {
            await writer.CommitAsync();
        }

        await _end.RefreshAsync();
        await waiting.AsTask().WaitAsync(Poll.Bound);
        Assert.True(_end.Value > before);
    }

    private async Task ReadTwiceAsync()
    {
        await _end.RefreshAsync();
        await _end.RefreshAsync();
    }

    // A transaction of another writer, taking its id first as the appender does, then one position.
    private sealed class Writer : IAsyncDisposable
    {
        private readonly NpgsqlConnection _connection;
        private readonly NpgsqlTransaction _transaction;

        private Writer(NpgsqlConnection connection, NpgsqlTransaction transaction, long position) => (_connection, _transaction, Position) = (connection, transaction, position);

        public long Position { get; }

        public static async Task<Writer> InsertAsync(NpgsqlDataSource database, string stream)
        {
            NpgsqlConnection connection = await database.OpenConnectionAsync();
            NpgsqlTransaction transaction = await connection.BeginTransactionAsync();
            await using (var takeId = new NpgsqlCommand("select pg_current_xact_id()", connection, transaction))
            {
                await takeId.ExecuteNonQueryAsync();
            }

            await using var insert = new NpgsqlCommand("insert into events (stream_id, version, type, data) values ($1, 0, 'Appended', '{}') returning global_position", connection, transaction)
            {
                Parameters = { new() { Value = stream } },
            };
            return new Writer(connection, transaction, (long)(await insert.ExecuteScalarAsync())!);
        }

        public Task CommitAsync() => _transaction.CommitAsync();

        public async ValueTask DisposeAsync()
        {
            await _transaction.DisposeAsync();
            await _connection.DisposeAsync();
        }
    }
}
