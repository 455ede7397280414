using EventFilter.Tests.Durability;

namespace EventFilter.Tests.Reliability;

/// <summary>
/// Random corruption at fractions either side of the all-ones threshold (1%) and the corruption threshold (5%): repair
/// below the first, repair and then rebuild online between them, rebuild offline above the second; no false negative.
/// </summary>
public sealed class CorruptionSweepTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(0.001, null)]
    [InlineData(0.01, null)]
    [InlineData(0.03, RebuildReason.AllOnesLines)]
    [InlineData(0.049, RebuildReason.AllOnesLines)]
    [InlineData(0.051, RebuildReason.TooCorrupted)]
    [InlineData(0.5, RebuildReason.TooCorrupted)]
    public async Task Corruption_below_the_threshold_repairs_and_above_it_rebuilds(double fraction, RebuildReason? rebuild)
    {
        int seeds = ReliabilityScale.Pick(ci: 2, full: 40);
        for (int seed = 0; seed < seeds; seed++)
        {
            string dir = _dir.File($"seed-{seed}");
            var options = new StreamExistenceFilterOptions { DataDirectory = dir, SizeBytes = 64 * 10_001 };
            var log = new InMemoryStreamLog();
            await FilterHarness.WriteCheckpointedAsync(options, log, 20_000);

            long[] corrupted = Integrity.CorruptionTests.CorruptRandomLines(options.FilterPath, fraction, seed);
            var observer = new RecordingObserver();
            using StreamExistenceFilter reopened = await FilterHarness.OpenReadyAsync(options, log, observer);
            if (rebuild is { } reason)
            {
                Assert.Equal([reason], observer.Rebuilds);
            }
            else
            {
                Assert.Empty(observer.Rebuilds);
            }

            if (rebuild != RebuildReason.TooCorrupted)
            {
                Assert.Equal(corrupted.Length, observer.LastVerification!.RepairedLines);
            }

            // Healed: an online rebuild leaves no all-ones line (the catch-up awaited above includes it).
            Assert.Equal(rebuild is null ? corrupted.Length : 0, reopened.ComputeStatistics()!.AllOnesLines);
            Assert.Equal(0, FilterHarness.FalseNegatives(reopened, 20_000));
        }
    }
}
