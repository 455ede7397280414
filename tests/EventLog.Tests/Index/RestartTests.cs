using EventLog.Streams;

namespace EventLog.Tests.Index;

public sealed class RestartTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    private EventLogOptions Options => Engines.Options(_directory.Path) with { MemTableEntries = 100, IndexMergeThreshold = 0 };

    [Fact]
    public async Task Reopen_rebuilds_the_memtable_from_the_log_tail_and_keeps_every_last_version()
    {
        Dictionary<string, long> expected = await WriteStreamsAsync();

        await using EventLogEngine engine = await Engines.StartAsync(Options);
        Assert.True(engine.IndexRecovery.Files > 0, "some entries were in index files");
        Assert.True(engine.IndexRecovery.ReplayedRecords > 0, "some entries were only in the memtable");
        Assert.True(engine.IndexRecovery.IndexedTo < engine.EndPosition);
        Assert.Null(engine.IndexRecovery.DiscardedReason);
        AssertVersions(engine, expected);

        // And appends carry on from those versions.
        AppendResult next = await engine.AppendAsync("stream-3", ExpectedVersion.Exact(expected["stream-3"]), Engines.Event());
        Assert.Equal(expected["stream-3"] + 1, next.LastEventNumber);
    }

    [Fact]
    public async Task A_damaged_index_file_is_dropped_and_the_index_rebuilt_from_the_whole_log()
    {
        Dictionary<string, long> expected = await WriteStreamsAsync();
        string victim = Directory.GetFiles(_directory.File("index"), "*.idx").Order(StringComparer.Ordinal).First();
        byte[] bytes = File.ReadAllBytes(victim);
        bytes[^7] ^= 0xFF;
        File.WriteAllBytes(victim, bytes);

        await using EventLogEngine engine = await Engines.StartAsync(Options);
        Assert.NotNull(engine.IndexRecovery.DiscardedReason);
        Assert.Equal(0, engine.IndexRecovery.IndexedTo);
        AssertVersions(engine, expected);
    }

    [Fact]
    public async Task A_missing_per_file_filter_is_rebuilt_from_its_index_file()
    {
        Dictionary<string, long> expected = await WriteStreamsAsync();
        string[] blooms = Directory.GetFiles(_directory.File("index"), "*.bloom");
        Assert.NotEmpty(blooms);
        File.Delete(blooms[0]);

        await using EventLogEngine engine = await Engines.StartAsync(Options);
        Assert.Null(engine.IndexRecovery.DiscardedReason);
        Assert.True(File.Exists(blooms[0]));
        AssertVersions(engine, expected);
    }

    private async Task<Dictionary<string, long>> WriteStreamsAsync()
    {
        var expected = new Dictionary<string, long>();
        await using EventLogEngine engine = await Engines.StartAsync(Options);
        for (int i = 0; i < 450; i++)
        {
            string stream = $"stream-{i % 37}";
            AppendResult result = await engine.AppendAsync(stream, ExpectedVersion.Any, Engines.Event(data: $"{i}"));
            expected[stream] = result.LastEventNumber;
        }

        await Engines.WaitForIndexFilesAsync(engine, atLeast: 3);
        return expected;
    }

    private static void AssertVersions(EventLogEngine engine, Dictionary<string, long> expected)
    {
        foreach ((string stream, long last) in expected)
        {
            Assert.Equal(last, engine.GetLastEventNumber(stream));
            StreamSlice slice = engine.ReadStreamForward(stream, 0, EventLimits.MaxReadCount);
            Assert.Equal(last + 1, slice.Events.Count);
            Assert.Equal(Enumerable.Range(0, (int)last + 1).Select(n => (long)n), slice.Events.Select(e => e.EventNumber));
        }
    }
}
