using EventFilter.Blocked;
using EventFilter.Durability;

namespace EventFilter.Tests.Durability;

/// <summary>
/// Catch-up through the region path end to end (docs/design.md, "Open sequence"): a 72 MiB file reads 73,727 records
/// at a time, enough for every thread to add; the previous path and the unpartitioned one, kept for
/// same-run comparisons, still work.
/// </summary>
public sealed class RegionCatchUpTests : IDisposable
{
    private const int Count = 300_000;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(2, nameof(CatchUpAdds.Regions))]
    [InlineData(1, nameof(CatchUpAdds.Regions))]
    [InlineData(1, nameof(CatchUpAdds.Pipeline))]
    [InlineData(2, nameof(CatchUpAdds.Unpartitioned))]
    public async Task Catch_up_of_a_large_log_finds_every_name_and_leaves_every_checksum_valid(int threads, string adds)
    {
        var log = new InMemoryStreamLog { MaxPerRead = int.MaxValue };
        for (int i = 0; i < Count; i++)
        {
            log.Append(Names.Added(i));
        }

        var options = new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 72 << 20, CatchUpThreads = threads, CatchUpAdds = Enum.Parse<CatchUpAdds>(adds) };
        using StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log);

        Assert.True(RegionAdder.BatchFor(filter.ServingFile!.LineCount).Capacity >= RegionAdder.ParallelMinimum);
        Assert.Equal(0, FilterHarness.FalseNegatives(filter, Count));
        Assert.Equal(0, filter.ServingFile.Verify(repair: false).MismatchedLines);
    }
}
