using EventLog.Streams;
using Xunit.Abstractions;

namespace EventLog.Tests.Filters;

/// <summary>
/// The EventStoreDB experiment in miniature: with many index files on disk, an append to a new stream must walk all
/// of them unless the stream-existence filter says "definitely new" first.
/// </summary>
public sealed class StreamExistenceFilterTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private EventLogOptions Options(long filterSize, bool perFileFilters = true) => Engines.Options(_directory.Path) with
    {
        MemTableEntries = 1000,
        IndexMergeThreshold = 0,
        StreamExistenceFilterSizeBytes = filterSize,
        PerFileFilters = perFileFilters,
    };

    [Fact]
    public async Task New_stream_appends_touch_no_index_file_when_the_filter_is_on_and_ready()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Options(filterSize: 1_000_000));
        await Engines.AppendNewStreamsAsync(engine, "existing", 12_000);
        await Engines.WaitForIndexFilesAsync(engine, atLeast: 10);
        await engine.Filter!.WhenReady;

        EngineStatistics before = engine.Statistics;
        await Engines.AppendNewStreamsAsync(engine, "brand-new", 5000);
        EngineStatistics after = engine.Statistics;

        output.WriteLine($"{before.IndexFiles} index files; filter negatives {after.StreamFilterNegatives - before.StreamFilterNegatives}, index-file reads {after.IndexFileReads - before.IndexFileReads}");
        Assert.True(before.IndexFiles >= 10);
        Assert.Equal(0, after.IndexFileReads - before.IndexFileReads);
        Assert.Equal(0, after.IndexFileFilterSkips - before.IndexFileFilterSkips);
        Assert.Equal(5000, after.StreamFilterNegatives - before.StreamFilterNegatives);
    }

    [Fact]
    public async Task New_stream_appends_walk_every_index_file_when_the_filter_is_off()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Options(filterSize: 0, perFileFilters: false));
        await Engines.AppendNewStreamsAsync(engine, "existing", 12_000);
        await Engines.WaitForIndexFilesAsync(engine, atLeast: 10);
        Assert.Null(engine.Filter);

        EngineStatistics before = engine.Statistics;
        await Engines.AppendNewStreamsAsync(engine, "brand-new", 5000);
        EngineStatistics after = engine.Statistics;

        long reads = after.IndexFileReads - before.IndexFileReads;
        output.WriteLine($"{before.IndexFiles} index files; index-file reads {reads} for 5000 new streams");
        Assert.True(reads >= 5000L * before.IndexFiles, $"{reads} reads, expected at least {5000L * before.IndexFiles}");
        Assert.Equal(0, after.StreamFilterNegatives);
    }

    [Fact]
    public async Task Existing_streams_are_still_found_behind_the_filter()
    {
        await using EventLogEngine engine = await Engines.StartAsync(Options(filterSize: 1_000_000) with { StreamInfoCacheCapacity = 0 });
        await Engines.AppendNewStreamsAsync(engine, "existing", 3000);
        await Engines.WaitForIndexFilesAsync(engine, atLeast: 2);
        await engine.Filter!.WhenReady;

        for (int i = 0; i < 3000; i += 7)
        {
            Assert.Equal(0, engine.GetLastEventNumber($"existing-{i}"));
            await Assert.ThrowsAsync<Errors.WrongExpectedVersionException>(() => engine.AppendAsync($"existing-{i}", ExpectedVersion.NoStream, Engines.Event()));
        }
    }

    [Fact]
    public async Task The_engine_filter_catches_up_after_a_restart_and_checkpoints_at_the_durable_end()
    {
        await using (EventLogEngine first = await Engines.StartAsync(Options(filterSize: 1_000_000)))
        {
            await Engines.AppendNewStreamsAsync(first, "before", 2000);
            await first.Filter!.WhenReady;
            Assert.Equal(first.EndPosition, first.CheckpointFilter());
            Assert.Equal(first.EndPosition, first.Filter.CheckpointPosition);
        }

        // Written with the filter off: the restarted filter must catch these up from its checkpoint.
        await using (EventLogEngine off = await Engines.StartAsync(Options(filterSize: 0)))
        {
            await Engines.AppendNewStreamsAsync(off, "while-off", 500);
        }

        await using EventLogEngine again = await Engines.StartAsync(Options(filterSize: 1_000_000));
        await again.Filter!.WhenReady;
        for (int i = 0; i < 500; i++)
        {
            Assert.True(again.Filter.MightExist($"while-off-{i}"));
        }

        Assert.Equal(0, again.GetLastEventNumber("while-off-499"));
    }
}
