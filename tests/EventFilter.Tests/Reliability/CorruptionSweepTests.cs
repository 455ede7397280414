using EventFilter.Durability;
using EventFilter.Tests.Durability;

namespace EventFilter.Tests.Reliability;

/// <summary>Random corruption at fractions either side of the 5% threshold: repair below it, rebuild above, no false negative either way.</summary>
public sealed class CorruptionSweepTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Theory]
    [InlineData(0.001, false)]
    [InlineData(0.01, false)]
    [InlineData(0.049, false)]
    [InlineData(0.051, true)]
    [InlineData(0.5, true)]
    public async Task Corruption_below_the_threshold_repairs_and_above_it_rebuilds(double fraction, bool rebuild)
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
            if (rebuild)
            {
                Assert.Equal([RebuildReason.TooCorrupted], observer.Rebuilds);
            }
            else
            {
                Assert.Empty(observer.Rebuilds);
                Assert.Equal(corrupted.Length, observer.LastVerification!.RepairedLines);
            }

            Assert.Equal(0, FilterHarness.FalseNegatives(reopened, 20_000));
        }
    }
}
