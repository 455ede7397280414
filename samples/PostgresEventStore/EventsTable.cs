using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// The log: one table of events. A record's position is its <c>global_position</c>, taken from the table's sequence
/// when the row is inserted, so positions have gaps (a rolled-back insert keeps its number) and, with several
/// appending transactions, commit out of order. A record ends at position + 1: that is the end the filter is given.
/// </summary>
public static class EventsTable
{
    /// <summary>The sequence <c>bigserial</c> makes; <see cref="HighWaterMark"/> reads it.</summary>
    public const string Sequence = "events_global_position_seq";

    // unique (stream_id, version) stays whatever the filter says: it is what turns two appends racing for one version
    // into one success and one wrong expected version, and its index serves the lookup of a stream's version.
    private const string Create = """
        create table if not exists events (
            global_position bigserial primary key,
            stream_id text not null,
            version bigint not null,
            type text not null,
            data jsonb not null,
            unique (stream_id, version))
        """;

    /// <summary>Creates the table if it is missing, and checks the sequence hands out numbers one at a time.</summary>
    public static async Task CreateAsync(NpgsqlDataSource database, CancellationToken cancellationToken = default)
    {
        await using (NpgsqlCommand create = database.CreateCommand(Create))
        {
            await create.ExecuteNonQueryAsync(cancellationToken);
        }

        await using NpgsqlCommand check = database.CreateCommand($"select seqcache from pg_sequence where seqrelid = '{Sequence}'::regclass");
        long cache = (long)(await check.ExecuteScalarAsync(cancellationToken))!;

        // With a cache, each session hands out numbers from its own block, so a number below the sequence's last value
        // can still be taken later, and the high-water mark's reasoning (docs/hosting-guide.md) no longer holds.
        if (cache != 1)
        {
            throw new InvalidOperationException($"The sequence {Sequence} has CACHE {cache}; the safe end needs CACHE 1 (ALTER SEQUENCE {Sequence} CACHE 1).");
        }
    }
}
