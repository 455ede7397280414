using EventFilter;
using EventFilter.Specification;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// The host-contract specification kit against the sample store over the package, many transactions in flight at
/// once, so positions commit out of order: the kit's facts run for <see cref="PostgresEventStoreSpecification"/>.
/// </summary>
public abstract class StoreSpecificationBase(PostgresServer server) : HostContractSpecification
{
    private readonly List<StoreUnderTest> _stores = [];

    /// <summary>Three processes over one table: the kit's multi-process scenario runs for the sample too.</summary>
    protected override int Processes => 3;
    private NpgsqlDataSource? _database;

    /// <summary>Changes the package's services: a broken end in place of the safe one, say.</summary>
    protected virtual void Change(IServiceCollection services)
    {
    }

    /// <summary>The store's append, returning the record's position; null: the sample's <see cref="EventStore"/>.</summary>
    protected virtual Func<IServiceProvider, string, Task<long>>? Append => null;

    /// <summary>Changes the new database before the first start: a cached sequence, say.</summary>
    protected virtual Task PrepareAsync(NpgsqlDataSource database) => Task.CompletedTask;

    // One database per test, across the host's restarts (the kit's directory names the host's data, here the database).
    protected override async Task<IHostUnderTest> StartHostAsync(string directory, IStreamExistenceFilter filter)
    {
        if (_database is null)
        {
            _database = await server.CreateDatabaseAsync();
            await PrepareAsync(_database);
        }

        StoreUnderTest store = await StoreUnderTest.StartAsync(_database.ConnectionString, filter, Change, Append);
        _stores.Add(store);
        return store;
    }

    // A cut as a restore to an earlier point leaves it: the rows past the cut and the sequence's numbers both gone.
    protected override async Task CutLogAsync(string directory, long position)
    {
        await using NpgsqlBatch cut = _database!.CreateBatch();
        cut.BatchCommands.Add(new("delete from events where global_position >= $1") { Parameters = { new NpgsqlParameter<long> { TypedValue = position } } });
        cut.BatchCommands.Add(new("select setval('events_global_position_seq', greatest($1 - 1, 1), $1 > 1)") { Parameters = { new NpgsqlParameter<long> { TypedValue = position } } });
        await cut.ExecuteNonQueryAsync();
    }

    protected override void Dispose(bool disposing)
    {
        base.Dispose(disposing); // stops a host a failed test left running, which may still read the log
        foreach (StoreUnderTest store in _stores)
        {
            store.CloseAsync().AsTask().GetAwaiter().GetResult();
        }

        _database?.Dispose();
    }
}

[Collection(PostgresCollection.Name)]
public sealed class PostgresEventStoreSpecification(PostgresServer server) : StoreSpecificationBase(server);
