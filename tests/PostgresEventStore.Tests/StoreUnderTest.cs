using EventFilter;
using EventFilter.PostgreSql.End;
using EventFilter.Specification;
using Microsoft.Extensions.Time.Testing;

namespace PostgresEventStore.Tests;

/// <summary>
/// The sample's store as the specification kit drives it: the package registered as a host registers it, with the
/// kit's filter in place of the hosted one, many transactions in flight at once. An append is acknowledged to the kit
/// once the end covers it, which is when the kit may read it back. The poll's clock never moves: only commits move
/// the end (this process's own, and the others' through their notifications). A stop drains the appends in flight,
/// as the web server does before the filter stops, and leaves the database open: the kit reads the log after it.
/// </summary>
internal sealed class StoreUnderTest : IHostUnderTest
{
    private readonly ServiceProvider _services;
    private readonly SafeEnd _end;
    private readonly Func<IServiceProvider, string, Task<long>> _append;
    private readonly CountdownEvent _inFlight = new(1);
    private int _stopping;

    private StoreUnderTest(ServiceProvider services, Func<IServiceProvider, string, Task<long>> append)
    {
        _services = services;
        _append = append;
        _end = services.GetRequiredService<SafeEnd>();
        Log = services.GetRequiredService<IStreamNameLog>();
    }

    public IStreamNameLog Log { get; }

    /// <summary>
    /// Starts the package's service (table check, first readings, listener) over <paramref name="connectionString"/>;
    /// appends through the sample's <see cref="EventStore"/>, or <paramref name="append"/> (returning the record's position).
    /// </summary>
    public static async Task<StoreUnderTest> StartAsync(string connectionString, IStreamExistenceFilter filter, Action<IServiceCollection>? change = null, Func<IServiceProvider, string, Task<long>>? append = null)
    {
        var services = new ServiceCollection();
        services.AddLogging();
        services.AddSingleton<TimeProvider>(new FakeTimeProvider());
        services.AddPostgreSqlStreamLog(options => options.ConnectionString = connectionString);
        services.AddSingleton(filter);
        services.AddSingleton<EventStore>();
        change?.Invoke(services);
        var store = new StoreUnderTest(services.BuildServiceProvider(), append ?? AppendThroughTheStoreAsync);
        foreach (IHostedService service in store._services.GetServices<IHostedService>())
        {
            await service.StartAsync(CancellationToken.None);
        }

        return store;
    }

    public async Task AppendAsync(string streamName, CancellationToken cancellationToken)
    {
        if (Volatile.Read(ref _stopping) == 1 || !_inFlight.TryAddCount())
        {
            throw new InvalidOperationException("The store is stopping.");
        }

        try
        {
            long position = await _append(_services, streamName);
            await _end.WhenReachedAsync(position + 1, cancellationToken);
        }
        finally
        {
            _inFlight.Signal();
        }
    }

    /// <summary>Stops: waits for the appends in flight, then stops the package's service. The database stays open.</summary>
    public async ValueTask DisposeAsync()
    {
        if (Interlocked.Exchange(ref _stopping, 1) == 0)
        {
            _inFlight.Signal();
            await Task.Run(() => _inFlight.Wait(Poll.Bound)); // bounded only to turn a hang into a failure
            foreach (IHostedService service in _services.GetServices<IHostedService>().Reverse())
            {
                await service.StopAsync(CancellationToken.None);
            }
        }
    }

    private static async Task<long> AppendThroughTheStoreAsync(IServiceProvider services, string streamName)
    {
        AppendResult result = await services.GetRequiredService<EventStore>().AppendAsync(streamName, EventStore.NoStream, [new EventData("Appended", """{"by":"kit"}""")], CancellationToken.None);
        return result.Appended ? result.Position : throw new InvalidOperationException($"{streamName} was refused: the stream is at version {result.Version}.");
    }

    /// <summary>Closes the database; after the kit has read the log for the last time.</summary>
    public ValueTask CloseAsync() => _services.DisposeAsync();
}
