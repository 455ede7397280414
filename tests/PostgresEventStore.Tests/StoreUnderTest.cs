using EventFilter;
using EventFilter.Specification;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Time.Testing;
using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// The sample's store as the specification kit drives it: its writers (several transactions in flight), its log and
/// its end over one database. An append is acknowledged to the kit once the end covers it, which is when the kit may
/// read it back. The poller's clock never moves here: only the store's own commits move the end.
/// </summary>
internal sealed class StoreUnderTest : IHostUnderTest
{
    private readonly CancellationTokenSource _stopping = new();
    private readonly AppendWriters _writers;
    private readonly EndPoller _poller;

    private StoreUnderTest(NpgsqlDataSource database, CommittedEnd end, IStreamExistenceFilter filter, int writers)
    {
        End = end;
        Store = new PostgresStreamLog(database, end);
        Commit = new GroupCommit(database, filter, end);
        _writers = new AppendWriters(Commit, writers);
        _poller = new EndPoller(end, new FakeTimeProvider(), NullLogger<EndPoller>.Instance);
    }

    public IStreamNameLog Log => Store;

    public PostgresStreamLog Store { get; }

    public CommittedEnd End { get; }

    public GroupCommit Commit { get; }

    public static async Task<StoreUnderTest> StartAsync(NpgsqlDataSource database, CommittedEnd end, IStreamExistenceFilter filter, int writers = 4)
    {
        var store = new StoreUnderTest(database, end, filter, writers);
        await store._poller.StartAsync(CancellationToken.None);
        await store._writers.StartAsync(CancellationToken.None);
        return store;
    }

    public async Task AppendAsync(string streamName, CancellationToken cancellationToken)
    {
        AppendResult result = await _writers.AppendAsync(new Append(streamName, Append.NoStream, [new EventData("Appended", """{"by":"kit"}""")]));
        if (!result.Appended)
        {
            throw new InvalidOperationException($"{streamName} was refused: the stream is at version {result.CurrentVersion}.");
        }

        await End.WhenReachedAsync(result.LastPosition + 1, _stopping.Token);
    }

    public async ValueTask DisposeAsync()
    {
        await _writers.StopAsync(CancellationToken.None); // commits what was taken, refuses the rest
        await _poller.StopAsync(CancellationToken.None);
        await _stopping.CancelAsync();
        _writers.Dispose();
        _poller.Dispose();
        _stopping.Dispose();
    }
}
