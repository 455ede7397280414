using System.Text;
using EventFilter;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// The safe end over a real database, with transactions this test holds open: it stays below an in-flight position
/// however many later ones commit, passes a rolled-back one, and a read of a range with no rows left below the end
/// moves to the end.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class HighWaterMarkTests(PostgresServer server) : IAsyncLifetime
{
    private NpgsqlDataSource _database = null!;

    public async Task InitializeAsync() => _database = await server.CreateDatabaseAsync();

    public async Task DisposeAsync() => await _database.DisposeAsync();

    [Fact]
    public async Task The_end_stays_below_a_transaction_in_flight_until_it_ends()
    {
        var end = new HighWaterMark(_database);
        await using Writer held = await Writer.InsertAsync(_database, "held");
        await using (Writer later = await Writer.InsertAsync(_database, "later"))
        {
            await later.CommitAsync();
            await end.RefreshAsync();
            await end.RefreshAsync();
        }

        Assert.True(end.Value <= held.Position, $"the end {end.Value} passed the position {held.Position} still in flight");
        await held.CommitAsync();
        await end.RefreshAsync();
        await end.RefreshAsync();
        Assert.Equal(held.Position + 2, end.Value); // both settled: just past "later"
    }

    [Fact]
    public async Task A_rolled_back_position_is_a_gap_the_end_passes_and_a_read_skips()
    {
        var end = new HighWaterMark(_database);
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

        await end.RefreshAsync();
        await end.RefreshAsync();
        Assert.Equal(kept + 2, end.Value);

        var log = new PostgresStreamLog(_database, end);
        var batch = new StreamNameBatch(maxRecords: 16);
        await log.ReadAsync(0, batch, CancellationToken.None);
        Assert.Equal("kept", Encoding.UTF8.GetString(batch.Names));
        Assert.Equal(end.Value, batch.NextPosition); // no row left below the end: the read moves to it
    }

    [Fact]
    public async Task The_poller_moves_the_end_when_its_clock_says_so()
    {
        var end = new HighWaterMark(_database);
        var time = new FakeTimeProvider();
        using var poller = new EndPoller(end, time, NullLogger<EndPoller>.Instance, TimeSpan.FromSeconds(1));
        await poller.StartAsync(CancellationToken.None);
        await using (Writer other = await Writer.InsertAsync(_database, "another-process"))
        {
            await other.CommitAsync();
            Assert.True(end.Value <= other.Position);

            // A tick that lands while the previous one still reads is lost, so tick until the end moves.
            await Poll.UntilAsync(() =>
            {
                time.Advance(TimeSpan.FromSeconds(1));
                return end.Value > other.Position;
            }, "the poller's readings to cover another writer's commit");
        }

        await poller.StopAsync(CancellationToken.None);
    }

    // A transaction of another writer, taking its id first as the store's do, then one position.
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
