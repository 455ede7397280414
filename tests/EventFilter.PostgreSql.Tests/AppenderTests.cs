using Npgsql;

namespace EventFilter.PostgreSql.Tests;

/// <summary>
/// The appender's write path: a stream another process created since this filter last heard meets the unique
/// constraint and goes round again with every answer "maybe"; an add after the code returned is refused; code that
/// throws rolls its transaction back and the end still moves past it; an append after the host stopped is refused.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class AppenderTests(PostgresServer server) : IAsyncLifetime
{
    private readonly TempDirectory _directory = new();
    private NpgsqlDataSource _database = null!;
    private PackageHost _host = null!;

    public async Task InitializeAsync()
    {
        _database = await server.CreateDatabaseAsync();

        // Notifications off and a poll of a minute: this filter does not hear of what the test inserts behind its back.
        _host = await PackageHost.StartAsync(_database.ConnectionString, _directory.Path, options =>
        {
            options.NotifyChannel = "";
            options.PollInterval = TimeSpan.FromMinutes(1);
        });
    }

    public async Task DisposeAsync()
    {
        await _host.DisposeAsync();
        await _database.DisposeAsync();
        _directory.Dispose();
    }

    [Fact]
    public async Task A_stream_the_filter_has_not_heard_of_meets_the_unique_constraint_and_is_looked_up_the_second_time()
    {
        await ExecuteAsync("begin; select pg_current_xact_id(); insert into events (stream_id, version, type, data) values ('taken', 0, 'Created', '{}'); commit");
        Assert.False(_host.Filter.MightExist("taken"));
        var answers = new List<(int Attempt, bool MightExist)>();

        long? found = await _host.Appender.AppendAsync(async (append, cancel) =>
        {
            answers.Add((append.Attempt, append.MightExist("taken")));
            if (!append.MightExist("taken"))
            {
                // Trusting "definitely not": insert version 0 without a lookup.
                await using NpgsqlCommand insert = append.CreateCommand("insert into events (stream_id, version, type, data) values ('taken', 0, 'Created', '{}')");
                await insert.ExecuteNonQueryAsync(cancel);
                return null;
            }

            await using NpgsqlCommand lookUp = append.CreateCommand("select max(version) from events where stream_id = 'taken'");
            return (long?)await lookUp.ExecuteScalarAsync(cancel);
        });

        Assert.Equal([(1, false), (2, true)], answers);
        Assert.Equal(0, found);
        Assert.Equal(1L, await ScalarAsync("select count(*) from events where stream_id = 'taken'"));
    }

    [Fact]
    public async Task An_add_after_the_code_returned_is_refused_it_would_come_after_the_commit()
    {
        PostgreSqlAppend? kept = null;
        await _host.Appender.AppendAsync((append, _) =>
        {
            kept = append;
            return Task.FromResult(0);
        });

        Assert.Throws<ObjectDisposedException>(() => kept!.Added("late", 1));
        Assert.False(_host.Filter.MightExist("late"));
    }

    [Fact]
    public async Task Code_that_throws_rolls_back_and_the_end_moves_past_its_position()
    {
        await Assert.ThrowsAsync<InvalidOperationException>(() => _host.AppendAsyncThen("rolled-back", () => throw new InvalidOperationException("refused")));
        long afterRollback = await ScalarAsync("select last_value from events_global_position_seq");
        long committed = await _host.AppendAsync("committed");

        Assert.Equal(0L, await ScalarAsync("select count(*) from events where stream_id = 'rolled-back'"));
        Assert.True(committed > afterRollback);
        await _host.ReadPosition.WaitForReadPositionAsync(committed + 1, CancellationToken.None).WaitAsync(Poll.Bound);
        Assert.True(_host.Filter.MightExist("committed"));
    }

    [Fact]
    public async Task An_append_after_the_host_stopped_is_refused_saying_so_and_adds_nothing()
    {
        await using PackageHost stopped = await PackageHost.StartAsync(_database.ConnectionString, Path.Combine(_directory.Path, "stopped"));
        PostgreSqlAppender appender = stopped.Appender;
        await stopped.StopAsync();
        bool ran = false;

        InvalidOperationException refused = await Assert.ThrowsAsync<InvalidOperationException>(() => appender.AppendAsync((_, _) => Task.FromResult(ran = true)));

        Assert.StartsWith("The events table's log has stopped (the host is shutting down, and the stream-existence filter is closed): this append was not made.", refused.Message, StringComparison.Ordinal);
        Assert.False(ran);
    }

    private async Task ExecuteAsync(string sql)
    {
        await using NpgsqlCommand command = _database.CreateCommand(sql);
        await command.ExecuteNonQueryAsync();
    }

    private async Task<long> ScalarAsync(string sql)
    {
        await using NpgsqlCommand command = _database.CreateCommand(sql);
        return (long)(await command.ExecuteScalarAsync())!;
    }
}
