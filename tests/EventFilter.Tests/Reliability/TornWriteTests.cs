using EventFilter.Journal;
using EventFilter.Tests.Durability;
using Xunit.Abstractions;

namespace EventFilter.Tests.Reliability;

/// <summary>
/// Simulated power cuts in the two places the filter writes after a checkpoint: while a flush appends to the journal
/// (the appended sectors each landed, stayed zero, or tore) and while a fold writes blocks into the main file (each
/// sector old, new or torn, the journal intact because it is deleted only after the fold's fsync). Only torn lines of
/// the main file may be repaired; a torn journal tail stops replay at its first bad record and never becomes bits;
/// the checkpoint is never ahead of what survived, and catch-up loses no name.
/// </summary>
public sealed class TornWriteTests(ITestOutputHelper output) : IDisposable
{
    private const int Sector = 512;
    private const int First = 3_000, Second = 300;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Power_cut_images_repair_only_torn_lines_and_lose_no_name()
    {
        int cases = ReliabilityScale.Pick(ci: 30, full: 1_000);
        var random = new Random(512);
        long tornLines = 0, cutJournals = 0, damagedJournals = 0;
        for (int c = 0; c < cases; c++)
        {
            (int torn, bool journalCut, bool damaged) = await OneCaseAsync(random, c, duringFold: c % 2 == 1);
            tornLines += torn;
            cutJournals += journalCut ? 1 : 0;
            damagedJournals += damaged ? 1 : 0;
        }

        output.WriteLine($"power-cut images: {cases}; torn main-file lines repaired: {tornLines}; journal appends cut short: {cutJournals} (reported damaged: {damagedJournals})");
        Assert.True(tornLines > 0, "no case tore a line: the simulation is not exercising repair");
        Assert.True(cutJournals > 0, "no case cut a journal append short: the simulation is not exercising replay");
    }

    private async Task<(int Torn, bool JournalCut, bool Damaged)> OneCaseAsync(Random random, int index, bool duringFold)
    {
        string dir = _dir.File($"case-{index}");
        // No background fold: each image below is taken while the files stand still.
        var options = new StreamExistenceFilterOptions { DataDirectory = dir, SizeBytes = 64 * 4096, JournalFoldBytes = long.MaxValue };
        var log = new InMemoryStreamLog();
        FilterImage before, appended;
        byte[] foldedFile;
        long firstCheckpoint;
        using (StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log))
        {
            FilterHarness.Append(log, filter, 0, First);
            filter.Checkpoint(firstCheckpoint = log.EndPosition);
            before = FilterImage.Capture(options.FilterPath);
            FilterHarness.Append(log, filter, First, Second); // sparse enough to be journaled
            filter.Checkpoint(log.EndPosition);
            appended = FilterImage.Capture(options.FilterPath);
            foldedFile = MainFileAfterFold(options.FilterPath, dir);
        }

        string fileName = Path.GetFileName(options.FilterPath);
        string journalName = Path.GetFileName(JournalFiles.List(options.FilterPath)[^1].Path);
        FilterImage image = duringFold ? appended : before;
        int torn = 0;
        bool journalCut = false;
        if (duringFold)
        {
            byte[] mixed = MixSectors(appended[fileName], foldedFile, 0, random);
            torn = CountTornLines(appended[fileName], foldedFile, mixed);
            image.Set(fileName, mixed);
        }
        else
        {
            byte[] oldJournal = before.FileNames.Contains(journalName) ? before[journalName] : [];
            byte[] newJournal = appended[journalName];
            byte[] mixed = MixSectors(Padded(oldJournal, newJournal.Length), newJournal, oldJournal.Length / Sector * Sector, random);
            image.Set(journalName, mixed);
            journalCut = !mixed.AsSpan().SequenceEqual(newJournal);
        }

        image.RestoreTo(options.FilterPath);
        var observer = new RecordingObserver();
        using var reopened = new StreamExistenceFilter(options, log, observer);
        reopened.Open();
        // Any cut in the appended records stops replay before the commit that ends them.
        Assert.Equal(journalCut ? firstCheckpoint : log.EndPosition, reopened.CheckpointPosition);
        await reopened.CatchUpAsync(CancellationToken.None);
        Assert.Equal(torn, observer.LastVerification!.MismatchedLines);
        Assert.Equal(torn, observer.LastVerification.RepairedLines);
        Assert.Equal(0, FilterHarness.FalseNegatives(reopened, First + Second));
        return (torn, journalCut, observer.JournalDamage is not null);
    }

    /// <summary>What the main file holds once the journal is folded into it: fold a copy, read its bytes.</summary>
    private static byte[] MainFileAfterFold(string filterPath, string dir)
    {
        string copy = Path.Combine(dir, "fold-copy", "f");
        Directory.CreateDirectory(Path.GetDirectoryName(copy)!);
        FilterImage.CopyTo(filterPath, copy);
        using (FilterFile file = FilterFile.OpenExisting(copy, writable: true))
        {
            file.FoldJournal();
        }

        byte[] bytes = File.ReadAllBytes(copy);
        Directory.Delete(Path.GetDirectoryName(copy)!, recursive: true);
        return bytes;
    }

    private static byte[] Padded(byte[] bytes, int length)
    {
        var padded = new byte[Math.Max(length, bytes.Length)];
        bytes.CopyTo(padded, 0);
        return padded;
    }

    /// <summary>Each sector from <paramref name="first"/> on: old or new; one in ten torn at a random byte inside it.</summary>
    private static byte[] MixSectors(byte[] old, byte[] updated, int first, Random random)
    {
        var image = (byte[])old.Clone();
        for (int start = Math.Max(first, Sector); start < image.Length; start += Sector) // the header sector never changes
        {
            int length = Math.Min(Sector, image.Length - start);
            double roll = random.NextDouble();
            if (roll < 0.45)
            {
                Array.Copy(updated, start, image, start, length);
            }
            else if (roll < 0.55)
            {
                Array.Copy(updated, start, image, start, random.Next(1, length)); // new prefix, old suffix
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
