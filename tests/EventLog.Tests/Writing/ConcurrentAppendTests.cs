using EventLog.Errors;
using EventLog.Streams;

namespace EventLog.Tests.Writing;

public sealed class ConcurrentAppendTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Racing_appends_with_one_exact_version_have_exactly_one_winner()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        await engine.AppendAsync("race", ExpectedVersion.NoStream, Engines.Event());
        for (long version = 0; version < 20; version++)
        {
            long expected = version;
            Task<AppendResult>[] racers = [.. Enumerable.Range(0, 8).Select(i => Task.Run(() => engine.AppendAsync("race", ExpectedVersion.Exact(expected), Engines.Event(data: $"{expected}:{i}"))))];
            await Task.WhenAll(racers).ContinueWith(_ => { }, TaskScheduler.Default);

            Assert.Equal(1, racers.Count(r => r.IsCompletedSuccessfully));
            Assert.All(racers.Where(r => !r.IsCompletedSuccessfully), r => Assert.Equal(expected + 1, Assert.IsType<WrongExpectedVersionException>(r.Exception!.InnerException).CurrentVersion));
        }

        Assert.Equal(20, engine.GetLastEventNumber("race"));
    }

    [Fact]
    public async Task Writers_retrying_on_conflict_lose_and_duplicate_nothing()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        const int writers = 6, eachWrites = 40;
        Task[] tasks = [.. Enumerable.Range(0, writers).Select(w => Task.Run(async () =>
        {
            for (int n = 0; n < eachWrites; n++)
            {
                while (true)
                {
                    long last = engine.GetLastEventNumber("shared");
                    ExpectedVersion expected = last < 0 ? ExpectedVersion.NoStream : ExpectedVersion.Exact(last);
                    try
                    {
                        await engine.AppendAsync("shared", expected, Engines.Event(data: $"{w}/{n}"));
                        break;
                    }
                    catch (WrongExpectedVersionException)
                    {
                        // Someone else won this version: read again and retry.
                    }
                }
            }
        }))];
        await Task.WhenAll(tasks);

        StreamSlice all = engine.ReadStreamForward("shared", 0, EventLimits.MaxReadCount);
        Assert.Equal(writers * eachWrites, all.Events.Count);
        Assert.Equal(Enumerable.Range(0, writers * eachWrites).Select(i => (long)i), all.Events.Select(e => e.EventNumber));
        Assert.Equal(writers * eachWrites, all.Events.Select(e => Engines.Text(e.Data)).Distinct().Count());
    }

    [Fact]
    public async Task Concurrent_appends_share_group_commits()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Engines.Options(_directory.Path));
        await Engines.AppendNewStreamsAsync(engine, "grouped", 2000, parallel: 200);

        EngineStatistics stats = engine.Statistics;
        Assert.Equal(2000, stats.AppendsWritten);
        Assert.True(stats.GroupCommits < 2000, $"{stats.GroupCommits} fsyncs for 2000 appends");
    }
}
