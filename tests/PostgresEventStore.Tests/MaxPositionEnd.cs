using EventFilter.PostgreSql.End;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// The broken end: one past the highest committed position, which is safe only with a single writer. With several,
/// a transaction still in flight holds a lower position that will commit after the end has passed it.
/// </summary>
internal sealed class MaxPositionEnd : EndReading
{
    public override async Task<long> ReadAsync(NpgsqlConnection connection, long timestamp, CancellationToken cancellationToken)
    {
        await using var command = new NpgsqlCommand("select coalesce(max(global_position), 0) + 1 from events", connection);
        return (long)(await command.ExecuteScalarAsync(cancellationToken))!;
    }
}
