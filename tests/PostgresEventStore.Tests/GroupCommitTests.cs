using EventFilter;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// One group commit over a real database: expected versions checked in order inside the group, and the unique
/// constraint failing only the append it catches when the filter, not knowing another writer's stream, let its lookup
/// be skipped.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class GroupCommitTests(PostgresServer server) : IAsyncLifetime
{
    private readonly TempDirectory _directory = new();
    private NpgsqlDataSource _database = null!;
    private HighWaterMark _end = null!;
    private StreamExistenceFilter _filter = null!;

    public async Task InitializeAsync()
    {
        _database = await server.CreateDatabaseAsync();
        _end = new HighWaterMark(_database);
        await _end.RefreshAsync();
        _filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _directory.Path, SizeBytes = 256 * 1024 }, new PostgresStreamLog(_database, _end));
        _filter.Open();
        await _filter.CatchUpAsync(CancellationToken.None);
    }

    public async Task DisposeAsync()
    {
        _filter.Dispose();
        await _database.DisposeAsync();
        _directory.Dispose();
    }

    [Fact]
    public async Task A_duplicate_version_fails_only_the_offending_append_of_the_group()
    {
        // Another process creates "taken" after this filter caught up: the filter answers "definitely not" for it.
        await ExecuteAsync("select pg_current_xact_id(); insert into events (stream_id, version, type, data) values ('taken', 0, 'Created', '{}')");
        Assert.False(_filter.MightExist("taken"));
        var commit = new GroupCommit(_database, _filter, _end);

        AppendResult[] results = await commit.CommitAsync([One("new-1"), One("taken"), One("new-2")]);

        Assert.Equal(1, commit.UniqueViolations); // the lookup was skipped, and the constraint caught it (23505)
        Assert.Equal([true, false, true], results.Select(r => r.Appended));
        Assert.Equal(0, results[1].CurrentVersion);
        Assert.Equal(["new-1:0", "new-2:0", "taken:0"], await StreamsAsync());
        Assert.True(_filter.MightExist("new-1") && _filter.MightExist("new-2"));
    }

    [Fact]
    public async Task A_stream_twice_in_a_group_sees_its_first_append()
    {
        var commit = new GroupCommit(_database, _filter, _end);

        AppendResult[] results = await commit.CommitAsync([One("twice"), One("twice", expectedVersion: 0), One("twice")]);

        Assert.Equal([(true, 0L), (true, 1L), (false, 1L)], results.Select(r => (r.Appended, r.CurrentVersion)));
        Assert.Equal(["twice:0", "twice:1"], await StreamsAsync());
        Assert.Equal(0, commit.UniqueViolations);
    }

    [Fact]
    public async Task A_stream_the_filter_knows_is_looked_up_and_refused_without_a_violation()
    {
        var commit = new GroupCommit(_database, _filter, _end);
        await commit.CommitAsync([One("known")]);

        AppendResult[] again = await commit.CommitAsync([One("known"), One("other")]);

        Assert.Equal([false, true], again.Select(r => r.Appended));
        Assert.Equal(0, commit.UniqueViolations);
        Assert.True(_end.Value > again[1].LastPosition, "a commit refreshes the end past its own positions");
    }

    /// <summary>
    /// Regression: .NET starts ExecuteAsync on the thread pool, and a stop that came before that work started left the
    /// writers never run and appends already queued waiting for ever.
    /// </summary>
    [Fact]
    public async Task Appends_queued_just_before_a_stop_are_committed_or_refused_whenever_the_stop_comes()
    {
        const int Rounds = 50;
        int committed = 0, refused = 0;
        for (int round = 0; round < Rounds; round++)
        {
            using var writers = new AppendWriters(new GroupCommit(_database, _filter, _end));
            await writers.StartAsync(CancellationToken.None);
            Task<AppendResult>[] appends = [.. Enumerable.Range(0, 3).Select(i => writers.AppendAsync(One($"stop-{round}-{i}")))];
            await writers.StopAsync(CancellationToken.None);

            foreach (Task<AppendResult> append in appends)
            {
                try
                {
                    Assert.True((await append.WaitAsync(Poll.Bound)).Appended); // bounded only to turn a hang into a failure
                    committed++;
                }
                catch (InvalidOperationException stopped)
                {
                    Assert.Equal("The event store stopped before this append was committed.", stopped.Message);
                    refused++;
                }
            }
        }

        Assert.Equal(Rounds * 3, committed + refused);
    }

    private static Append One(string stream, long expectedVersion = Append.NoStream) => new(stream, expectedVersion, [new EventData("Appended", "{}")]);

    private async Task ExecuteAsync(string sql)
    {
        await using NpgsqlConnection connection = await _database.OpenConnectionAsync();
        await using NpgsqlTransaction transaction = await connection.BeginTransactionAsync();
        await using var command = new NpgsqlCommand(sql, connection, transaction);
        await command.ExecuteNonQueryAsync();
        await transaction.CommitAsync();
    }

    private async Task<List<string>> StreamsAsync()
    {
        var streams = new List<string>();
        await using NpgsqlCommand command = _database.CreateCommand("select stream_id || ':' || version from events order by stream_id, version");
        await using NpgsqlDataReader reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            streams.Add(reader.GetString(0));
        }

        return streams;
    }
}
