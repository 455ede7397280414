using EventFilter.Checkpoints;
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

            // The filter's blocks were reserved at creation, so adds touching fresh pages cannot SIGBUS now.
            FilterHarness.Append(log, filter, 1_000, 20_000);
            Assert.ThrowsAny<IOException>(() => filter.Checkpoint(21_000));
            Assert.Equal(1_000, filter.CheckpointPosition);
            Assert.Equal(0, FilterHarness.FalseNegatives(filter, 21_000));
        }

        Assert.Equal(1_000, CheckpointFile.TryRead(CheckpointFile.PathFor(options.FilterPath))!.Value.Position);
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
    public async Task A_checkpoint_write_that_hits_ENOSPC_leaves_the_previous_checkpoint()
    {
        var options = new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 1 << 20 };
        var log = new InMemoryStreamLog();
        using StreamExistenceFilter filter = await FilterHarness.OpenReadyAsync(options, log);
        FilterHarness.Append(log, filter, 0, 500);
        filter.Checkpoint(500);

        // /dev/full answers every write with ENOSPC: the temporary checkpoint lands there.
        string temporary = CheckpointFile.PathFor(options.FilterPath) + ".tmp";
        File.CreateSymbolicLink(temporary, "/dev/full");
        FilterHarness.Append(log, filter, 500, 500);
        Assert.ThrowsAny<IOException>(() => filter.Checkpoint(1_000));
        Assert.Equal(500, CheckpointFile.TryRead(CheckpointFile.PathFor(options.FilterPath))!.Value.Position);

        File.Delete(temporary);
        filter.Checkpoint(1_000);
        Assert.Equal(1_000, CheckpointFile.TryRead(CheckpointFile.PathFor(options.FilterPath))!.Value.Position);
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
