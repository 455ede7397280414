using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;
using Npgsql;

namespace EventFilter.PostgreSql.Tests;

/// <summary>
/// A table the package cannot serve fails the host's start with one line saying what to change, and exit code 6 (7
/// for a database it cannot reach), before the filter opens: nothing is created in the data directory.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class StartCheckTests(PostgresServer server) : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData("drop table events", "The events table \"public\".\"events\" does not exist, or this role cannot see it: create it, or set StreamExistenceFilter:PostgreSql:Schema and StreamExistenceFilter:PostgreSql:Table")]
    [InlineData("alter table events rename column stream_id to stream", "The events table \"public\".\"events\" has no column \"stream_id\": set StreamExistenceFilter:PostgreSql:StreamColumn")]
    [InlineData("alter sequence events_global_position_seq cache 20", "The sequence public.events_global_position_seq has CACHE 20; the safe end needs CACHE 1: ALTER SEQUENCE public.events_global_position_seq CACHE 1.")]
    [InlineData("alter table events alter column global_position drop default", "The position column \"global_position\" of \"public\".\"events\" takes no value from a sequence")]
    [InlineData("alter table events alter column global_position type numeric", "The position column \"global_position\" of \"public\".\"events\" is numeric: it must be a bigint")]
    public async Task A_table_that_does_not_fit_fails_the_start_with_one_line_and_exit_code_6(string change, string expected)
    {
        await using NpgsqlDataSource database = await server.CreateDatabaseAsync();
        await using (NpgsqlCommand command = database.CreateCommand(change))
        {
            await command.ExecuteNonQueryAsync();
        }

        PostgreSqlStreamLogStartException failure = await StartFailsAsync(database.ConnectionString);

        Assert.Equal(6, failure.ExitCode);
        Assert.StartsWith(expected, failure.Message, StringComparison.Ordinal);
        Assert.DoesNotContain('\n', failure.Message);
        Assert.Empty(Directory.EnumerateFileSystemEntries(_directory.Path));
    }

    [Fact]
    public async Task A_role_that_may_not_read_the_table_fails_the_start_naming_the_grant()
    {
        await using NpgsqlDataSource database = await server.CreateDatabaseAsync();
        await using (NpgsqlCommand role = database.CreateCommand("drop role if exists reader; create role reader login; grant usage on schema public to reader"))
        {
            await role.ExecuteNonQueryAsync();
        }

        string asReader = new NpgsqlConnectionStringBuilder(database.ConnectionString) { Username = "reader" }.ConnectionString;
        PostgreSqlStreamLogStartException failure = await StartFailsAsync(asReader);

        Assert.Equal(6, failure.ExitCode);
        Assert.Equal("This role may not read the table \"public\".\"events\": GRANT SELECT ON \"public\".\"events\" TO the role in the connection string.", failure.Message);
    }

    [Fact]
    public async Task A_database_that_does_not_exist_fails_the_start_with_exit_code_7()
    {
        PostgreSqlStreamLogStartException failure = await StartFailsAsync(server.ConnectionString("no_such_database"));

        Assert.Equal(7, failure.ExitCode);
        Assert.StartsWith("The events table's database cannot be reached: 3D000: database \"no_such_database\" does not exist (check StreamExistenceFilter:PostgreSql:ConnectionString", failure.Message, StringComparison.Ordinal);
        Assert.Empty(Directory.EnumerateFileSystemEntries(_directory.Path));
    }

    [Fact]
    public async Task A_bad_setting_fails_the_start_naming_its_key_before_anything_connects()
    {
        using IHost host = PackageHost.Build(server.ConnectionString("postgres"), _directory.Path, options =>
        {
            options.PollInterval = TimeSpan.FromMinutes(5);
            options.Table = "";
        });

        OptionsValidationException failure = await Assert.ThrowsAsync<OptionsValidationException>(() => host.StartAsync());

        Assert.Equal(
            ["StreamExistenceFilter:PostgreSql:Table is empty: name the events table.", "StreamExistenceFilter:PostgreSql:PollInterval is 00:05:00: a time span hh:mm:ss[.fff] from 00:00:00.010 to 00:01:00, e.g. 00:00:01."],
            failure.Failures);
    }

    private async Task<PostgreSqlStreamLogStartException> StartFailsAsync(string connectionString)
    {
        using IHost host = PackageHost.Build(connectionString, _directory.Path);
        return await Assert.ThrowsAsync<PostgreSqlStreamLogStartException>(() => host.StartAsync());
    }
}
