using Npgsql;

namespace EventFilter.PostgreSqlBench;

/// <summary>The sample's events table, dropped and created again before each run, and settled (vacuum, checkpoint).</summary>
internal static class EventsTable
{
    private const string Create = """
        drop table if exists events;
        create table events (
            global_position bigserial primary key,
            stream_id text not null,
            version bigint not null,
            type text not null,
            data jsonb not null,
            unique (stream_id, version));
        """;

    public static async Task ResetAsync(string connection)
    {
        await using NpgsqlDataSource database = NpgsqlDataSource.Create(connection);
        await using (NpgsqlCommand create = database.CreateCommand(Create))
        {
            await create.ExecuteNonQueryAsync();
        }

        try
        {
            await using NpgsqlCommand checkpoint = database.CreateCommand("checkpoint");
            await checkpoint.ExecuteNonQueryAsync();
        }
        catch (PostgresException denied) when (denied.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            // Not allowed to (the pg_checkpoint role): measured without it, and a run may meet a checkpoint.
        }
    }
}
