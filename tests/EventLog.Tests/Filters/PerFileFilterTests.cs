using Xunit.Abstractions;

namespace EventLog.Tests.Filters;

/// <summary>The SSTable experiment: each index file's own Bloom filter lets a lookup for an absent key skip the file.</summary>
public sealed class PerFileFilterTests(ITestOutputHelper output) : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task Per_file_filters_cut_index_file_reads_for_absent_keys()
    {
        EventLogOptions options = Engines.Options(_directory.Path) with { MemTableEntries = 1000, IndexMergeThreshold = 0, StreamInfoCacheCapacity = 0 };
        int files;
        await using (EventLogEngine writer = await Engines.StartAsync(options))
        {
            await Engines.AppendNewStreamsAsync(writer, "present", 10_000);
            await Engines.WaitForIndexFilesAsync(writer, atLeast: 8);
        }

        // The same index files, looked up with their filters and then without.
        long withFilters, skipped, withoutFilters;
        await using (EventLogEngine on = await EventLogEngine.OpenAsync(options with { PerFileFilters = true }))
        {
            files = on.Statistics.IndexFiles;
            (withFilters, skipped) = LookUpAbsent(on);
        }

        await using (EventLogEngine off = await EventLogEngine.OpenAsync(options with { PerFileFilters = false }))
        {
            (withoutFilters, _) = LookUpAbsent(off);
        }

        output.WriteLine($"{files} files, 2000 absent keys: {withFilters} reads with per-file filters ({skipped} skips), {withoutFilters} without");
        Assert.Equal(2000L * files, withoutFilters);
        Assert.Equal(2000L * files, withFilters + skipped);
        Assert.True(withFilters < 0.05 * withoutFilters, $"{withFilters} reads with filters sized for 1% false positives");
    }

    private static (long Reads, long Skips) LookUpAbsent(EventLogEngine engine)
    {
        EngineStatistics before = engine.Statistics;
        for (int i = 0; i < 2000; i++)
        {
            Assert.Equal(-1, engine.GetLastEventNumber($"absent-{i}"));
        }

        EngineStatistics after = engine.Statistics;
        return (after.IndexFileReads - before.IndexFileReads, after.IndexFileFilterSkips - before.IndexFileFilterSkips);
    }
}
