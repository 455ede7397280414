using Npgsql;

namespace EventFilter.PostgreSqlBench;

/// <summary>
/// The sample's events table (samples/PostgresEventStore/schema.sql, read from the repository the bench runs in),
/// dropped and created again before each run, and settled (checkpoint).
/// </summary>
internal static class EventsTable
{
    private static readonly string Create = "drop table if exists events;\n" + File.ReadAllText(Path.Combine(RepositoryRoot(), "samples", "PostgresEventStore", "schema.sql"));

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

    // The directory above the bench's binaries that holds EventFilter.sln.
    private static string RepositoryRoot()
    {
        var directory = new DirectoryInfo(AppContext.BaseDirectory);
        while (directory is not null && !File.Exists(Path.Combine(directory.FullName, "EventFilter.sln")))
        {
            directory = directory.Parent;
        }

        return directory?.FullName ?? throw new InvalidOperationException("run the bench from the repository: no EventFilter.sln above " + AppContext.BaseDirectory);
    }
}
