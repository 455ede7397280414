using EventFilter.Tests.Durability;

namespace EventFilter.Tests.Reliability;

/// <summary>Unusable storage gets a clear error, leaves nothing half-made, and loses nothing already checkpointed.</summary>
public sealed class StorageFailureTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [RootFact]
    public void A_full_disk_fails_open_with_a_clear_error_and_leaves_no_file()
    {
        using var disk = SmallTmpfs.Mount(_dir.File("full"), kilobytes: 512);
        var options = new StreamExistenceFilterOptions { DataDirectory = disk.Path, SizeBytes = 4 << 20 };
        using var filter = new StreamExistenceFilter(options, new InMemoryStreamLog());
        var error = Assert.Throws<IOException>(filter.Open);
        Assert.Contains("disk was full", error.Message, StringComparison.Ordinal);
        Assert.Equal([options.FilterPath + ".lock"], Directory.GetFiles(disk.Path)); // no filter, no half-made temporary
        Assert.True(filter.MightExist("anything"));
    }

    [RootFact]
    public async Task A_disk_that_fills_up_later_fails_checkpoints_clearly_while_adds_go_on()
    {
        using var disk = SmallTmpfs.Mount(_dir.File("filling"), kilobytes: 2048);
        var options = new StreamExistenceFilterOptions { DataDirectory = disk.Path, SizeBytes = 1 << 20 };
        var log = new InMemoryStreamLog();
        using (StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log))
        {
            FilterHarness.Append(log, filter, 0, 1_000);
            filter.Checkpoint(1_000);
            FillUp(disk.Path);

            // The filter's blocks were reserved at creation; its journal's next blocks were not: 1,000 sparse names
            // need about 68 KB of journal, which a full disk refuses.
            FilterHarness.Append(log, filter, 1_000, 1_000);
            Assert.ThrowsAny<IOException>(() => filter.Checkpoint(2_000));
            Assert.Equal(1_000, filter.CheckpointPosition);
            Assert.Equal(0, FilterHarness.FalseNegatives(filter, 2_000));
        }

        // Reopened on the still-full disk: the open cannot fold, which is not fatal, and the durable position is 1,000.
        using var reopened = new StreamExistenceFilter(options, log);
        reopened.Open();
        Assert.Equal(1_000, reopened.CheckpointPosition);
    }

    private static void FillUp(string directory)
    {
        using var filler = new FileStream(Path.Combine(directory, "filler"), FileMode.Create);
        var block = new byte[4096];
        try
        {
            while (true)
            {
                filler.Write(block);
                filler.Flush();
            }
        }
        catch (IOException)
        {
            // ENOSPC: the disk is full, which is the point.
        }
    }

    [RootFact]
    public void A_read_only_data_directory_fails_open_with_a_clear_error()
    {
        using var disk = SmallTmpfs.Mount(_dir.File("ro-open"), kilobytes: 1024);
        disk.RemountReadOnly();
        using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = disk.Path, SizeBytes = 1 << 16 }, new InMemoryStreamLog());
        var error = Assert.ThrowsAny<IOException>(filter.Open);
        Assert.Contains(disk.Path, error.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void A_fold_whose_checkpoint_write_hits_ENOSPC_keeps_the_journal_and_loses_nothing()
    {
        string path = _dir.File("filter.bin");
        using (FilterFile filter = FilterFile.Open(path, new FilterFileOptions { SizeBytes = 1 << 20 }))
        {
            AddRange(filter, 0, 500);
            filter.Flush(position: 500);

            // /dev/full answers every write with ENOSPC: the fold's temporary checkpoint lands there.
            string temporary = CheckpointFile.PathFor(path) + ".tmp";
            File.CreateSymbolicLink(temporary, "/dev/full");
            Assert.ThrowsAny<IOException>(() => filter.FoldJournal());
            Assert.NotEmpty(EventFilter.Journal.JournalFiles.List(path));
            Assert.False(File.Exists(CheckpointFile.PathFor(path)));

            File.Delete(temporary);
            AddRange(filter, 500, 500);
            filter.Flush(position: 1_000);
        }

        // Only the durable files speak now: every name of both batches, and the last position.
        using FilterFile reopened = FilterFile.OpenExisting(path);
        Assert.Equal(1_000, reopened.PendingJournal.Position);
        Assert.Equal(0, Enumerable.Range(0, 1_000).Count(i => !reopened.MightExist(Names.Added(i))));
    }

    private static void AddRange(FilterFile filter, int from, int count)
    {
        for (int i = from; i < from + count; i++)
        {
            filter.Add(Names.Added(i));
        }
    }

    [Fact]
    public void A_data_directory_that_is_a_file_fails_open_with_a_clear_error()
    {
        string notADirectory = _dir.File("plain-file");
        File.WriteAllText(notADirectory, "x");
        using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = notADirectory, SizeBytes = 1 << 16 }, new InMemoryStreamLog());
        var error = Assert.ThrowsAny<IOException>(filter.Open);
        Assert.Contains(notADirectory, error.Message, StringComparison.Ordinal);
    }
}
