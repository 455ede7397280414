using EventLog.Streams;

namespace EventLog.Tests.Index;

public sealed class MergeTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Four_files_of_a_level_merge_into_one_and_lookups_stay_right()
    {
        EventLogOptions options = Engines.Options(_directory.Path) with { MemTableEntries = 100, IndexMergeThreshold = 4 };
        var expected = new Dictionary<string, long>();
        await using (EventLogEngine engine = await Engines.StartAsync(options))
        {
            for (int i = 0; i < 2000; i++)
            {
                string stream = $"m-{i % 150}";
                expected[stream] = (await engine.AppendAsync(stream, ExpectedVersion.Any, Engines.Event())).LastEventNumber;
            }

            await WaitForQuietAsync(engine);
            EngineStatistics stats = engine.Statistics;
            Assert.True(stats.IndexMerges >= 4, $"{stats.IndexMerges} merges after {stats.IndexFlushes} flushes");
            Assert.True(stats.IndexFiles < stats.IndexFlushes);
            Assert.True(stats.IndexFiles <= 3 * 3, "at most three files per level below the threshold");
            AssertVersions(engine, expected);
        }

        // Merged-away files are deleted once unused; what is left on disk is what the index uses.
        await using EventLogEngine reopened = await Engines.StartAsync(options);
        Assert.Equal(reopened.IndexRecovery.Files, Directory.GetFiles(_directory.File("index"), "*.idx").Length);
        Assert.Equal(reopened.IndexRecovery.Files, Directory.GetFiles(_directory.File("index"), "*.bloom").Length);

        // Regression: the filters' writer-lock files went with them, instead of piling up with every merge.
        Assert.True(Directory.GetFiles(_directory.File("index"), "*.bloom.lock").Length <= reopened.IndexRecovery.Files);
        AssertVersions(reopened, expected);
    }

    // Merges run after the flush that triggers them: wait for both. The merges are waited for by count, since
    // 9 files or fewer can also be a moment when a lagging merge thread has done only 3 of its merges.
    private static Task WaitForQuietAsync(EventLogEngine engine) => Poll.UntilAsync(
        () => engine.Statistics.MemTableEntries <= engine.Options.MemTableEntries * 2L && engine.Statistics.IndexFiles <= 3 * 3 && engine.Statistics.IndexMerges >= 4,
        () => $"flushes and merges to settle ({engine.Statistics})");

    private static void AssertVersions(EventLogEngine engine, Dictionary<string, long> expected)
    {
        foreach ((string stream, long last) in expected)
        {
            Assert.Equal(last, engine.GetLastEventNumber(stream));
            Assert.Equal(last + 1, engine.ReadStreamForward(stream, 0, EventLimits.MaxReadCount).Events.Count);
        }
    }
}
