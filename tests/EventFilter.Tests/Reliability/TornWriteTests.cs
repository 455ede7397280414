using EventFilter.Checkpoints;
using EventFilter.Tests.Durability;
using Xunit.Abstractions;

namespace EventFilter.Tests.Reliability;

/// <summary>
/// Simulated power cuts: the disk holds, sector by sector, either the checkpointed image or the newer one, and some
/// sectors tore inside themselves. Only lines that really tore may be repaired; catch-up must lose no name.
/// </summary>
public sealed class TornWriteTests(ITestOutputHelper output) : IDisposable
{
    private const int Sector = 512;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Power_cut_images_repair_only_torn_lines_and_lose_no_name()
    {
        int cases = ReliabilityScale.Pick(ci: 25, full: 1_000);
        var random = new Random(512);
        long tornLinesSeen = 0;
        for (int c = 0; c < cases; c++)
        {
            tornLinesSeen += await OneCaseAsync(random, c);
        }

        output.WriteLine($"power-cut images: {cases}, torn lines repaired: {tornLinesSeen}");
        Assert.True(tornLinesSeen > 0, "no case tore a line: the simulation is not exercising repair");
    }

    private async Task<int> OneCaseAsync(Random random, int index)
    {
        string dir = _dir.File($"case-{index}");
        var options = new StreamExistenceFilterOptions { DataDirectory = dir, SizeBytes = 64 * 4096 };
        var log = new InMemoryStreamLog();
        byte[] before, after;
        using (StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log))
        {
            FilterHarness.Append(log, filter, 0, 10_000);
            filter.Checkpoint(log.EndPosition);
            before = File.ReadAllBytes(options.FilterPath);
            FilterHarness.Append(log, filter, 10_000, 5_000);
            after = File.ReadAllBytes(options.FilterPath);
        }

        byte[] image = MixSectors(before, after, random);
        File.WriteAllBytes(options.FilterPath, image);
        int torn = CountTornLines(before, after, image);

        var observer = new RecordingObserver();
        using StreamExistenceFilter reopened = await FilterHarness.OpenReadyAsync(options, log, observer);
        Assert.Equal(torn, observer.LastVerification!.MismatchedLines);
        Assert.Equal(torn, observer.LastVerification.RepairedLines);
        Assert.Equal(0, FilterHarness.FalseNegatives(reopened, 15_000));
        Assert.Equal(15_000, CheckpointFile.TryRead(CheckpointFile.PathFor(options.FilterPath))!.Value.Position);
        return torn;
    }

    /// <summary>Each sector from the old or new image; one in ten torn at a random byte inside it.</summary>
    private static byte[] MixSectors(byte[] before, byte[] after, Random random)
    {
        var image = (byte[])before.Clone();
        for (int start = Sector; start < image.Length; start += Sector) // the header sector never changes
        {
            int length = Math.Min(Sector, image.Length - start);
            double roll = random.NextDouble();
            if (roll < 0.45)
            {
                Array.Copy(after, start, image, start, length);
            }
            else if (roll < 0.55)
            {
                Array.Copy(after, start, image, start, random.Next(1, length)); // new prefix, old suffix
            }
        }

        return image;
    }

    /// <summary>Lines that are neither wholly old nor wholly new: the only ones a verifier may repair.</summary>
    private static int CountTornLines(byte[] before, byte[] after, byte[] image)
    {
        int torn = 0;
        for (int offset = 64; offset < image.Length; offset += 64)
        {
            var line = image.AsSpan(offset, 64);
            if (!line.SequenceEqual(before.AsSpan(offset, 64)) && !line.SequenceEqual(after.AsSpan(offset, 64)))
            {
                torn++;
            }
        }

        return torn;
    }
}
