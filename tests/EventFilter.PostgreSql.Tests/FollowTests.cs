using Microsoft.Extensions.DependencyInjection;
using Npgsql;

namespace EventFilter.PostgreSql.Tests;

/// <summary>
/// Processes over one table learn each other's streams: woken by the appending process's notification when the poll
/// is too slow to be what woke them, and by the poll alone when notifications are off. The package turns following on.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class FollowTests(PostgresServer server) : IAsyncLifetime
{
    private readonly TempDirectory _directory = new();
    private NpgsqlDataSource _database = null!;

    public async Task InitializeAsync() => _database = await server.CreateDatabaseAsync();

    public async Task DisposeAsync()
    {
        await _database.DisposeAsync();
        _directory.Dispose();
    }

    [Fact]
    public async Task A_process_hears_of_another_processs_commit_by_notification()
    {
        // A poll of a minute: within the test's bound only a notification can move the reader's end.
        await LearnsAsync(options => options.PollInterval = TimeSpan.FromMinutes(1));
    }

    [Fact]
    public async Task A_process_learns_another_processs_streams_by_the_poll_when_notifications_are_off()
    {
        await LearnsAsync(options =>
        {
            options.NotifyChannel = "";
            options.PollInterval = TimeSpan.FromMilliseconds(20);
        });
    }

    /// <summary>
    /// Every process's checkpoint claims only what it has read. An appending process that does not follow (the
    /// mutation: following left off) checkpoints as far as its own adds reached, past the other process's rows it never
    /// read, and forgets them on restart.
    /// </summary>
    [Theory]
    [InlineData(true, 0)]
    [InlineData(false, 40)]
    public async Task After_a_restart_every_row_below_the_read_position_is_found_only_when_following(bool follow, int forgotten)
    {
        await using PackageHost writer = await PackageHost.StartAsync(_database.ConnectionString, Path.Combine(_directory.Path, "writer"));
        string readerDirectory = Path.Combine(_directory.Path, "reader");
        Action<PostgreSqlStreamLogOptions> configure = options => options.LeaveFollowingOff = !follow;
        long last = 0;
        await using (PackageHost reader = await PackageHost.StartAsync(_database.ConnectionString, readerDirectory, configure))
        {
            for (int i = 0; i < 40; i++)
            {
                last = await writer.AppendAsync($"other-{i}");
            }

            last = await reader.AppendAsync("its-own"); // its add's end lies past every row of the other process

            IStreamNameLog log = reader.Services.GetRequiredService<IStreamNameLog>();
            await Poll.UntilAsync(() => log.EndPosition > last, "the reader's end to cover the writer's rows");
        }

        await using PackageHost restarted = await PackageHost.StartAsync(_database.ConnectionString, readerDirectory, configure);
        long readPosition = restarted.ReadPosition.ReadPosition;
        Assert.True(readPosition > last, $"the restarted reader's position {readPosition} is below the last row {last}");
        Assert.Equal(forgotten, Enumerable.Range(0, 40).Count(i => !restarted.Filter.MightExist($"other-{i}")));
    }

    private async Task LearnsAsync(Action<PostgreSqlStreamLogOptions> configure)
    {
        await using PackageHost writer = await PackageHost.StartAsync(_database.ConnectionString, Path.Combine(_directory.Path, "writer"), configure);
        await using PackageHost reader = await PackageHost.StartAsync(_database.ConnectionString, Path.Combine(_directory.Path, "reader"), configure);
        Assert.False(reader.Filter.MightExist("written-elsewhere"));

        long position = await writer.AppendAsync("written-elsewhere");
        await reader.ReadPosition.WaitForReadPositionAsync(position + 1, CancellationToken.None).WaitAsync(Poll.Bound);

        Assert.True(reader.Filter.MightExist("written-elsewhere"));
        Assert.True(writer.Filter.MightExist("written-elsewhere"));
    }
}
