using EventFilter;
using EventFilter.Specification;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// The host-contract specification kit against the sample store, with four writers whose transactions overlap, so
/// positions commit out of order: the kit's facts run for <see cref="PostgresEventStoreSpecification"/>.
/// </summary>
public abstract class StoreSpecificationBase(PostgresServer server) : HostContractSpecification
{
    private NpgsqlDataSource? _database;

    protected NpgsqlDataSource Database => _database!;

    /// <summary>The end the store reads: the sample's high-water mark, or a broken one.</summary>
    protected virtual CommittedEnd NewEnd(NpgsqlDataSource database) => new HighWaterMark(database);

    /// <summary>The filter the store adds to: the kit's, or the kit's behind a gate.</summary>
    protected virtual IStreamExistenceFilter Wrap(IStreamExistenceFilter filter, NpgsqlDataSource database, CommittedEnd end) => filter;

    // One database per test, across the host's restarts (the kit's directory names the host's data, here the database).
    protected override async Task<IHostUnderTest> StartHostAsync(string directory, IStreamExistenceFilter filter)
    {
        _database ??= await server.CreateDatabaseAsync();
        CommittedEnd end = NewEnd(_database);
        return await StoreUnderTest.StartAsync(_database, end, Wrap(filter, _database, end));
    }

    // A cut as a restore to an earlier point leaves it: the rows past the cut and the sequence's numbers both gone.
    protected override async Task CutLogAsync(string directory, long position)
    {
        await using NpgsqlBatch cut = _database!.CreateBatch();
        cut.BatchCommands.Add(new($"delete from events where global_position >= $1") { Parameters = { new NpgsqlParameter<long> { TypedValue = position } } });
        cut.BatchCommands.Add(new($"select setval('{EventsTable.Sequence}', greatest($1 - 1, 1), $1 > 1)") { Parameters = { new NpgsqlParameter<long> { TypedValue = position } } });
        await cut.ExecuteNonQueryAsync();
    }

    protected override void Dispose(bool disposing)
    {
        _database?.Dispose();
        base.Dispose(disposing);
    }
}

[Collection(PostgresCollection.Name)]
public sealed class PostgresEventStoreSpecification(PostgresServer server) : StoreSpecificationBase(server);
