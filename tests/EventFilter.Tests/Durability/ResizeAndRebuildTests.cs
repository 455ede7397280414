using EventFilter.Durability;
using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

public sealed class ResizeAndRebuildTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task An_interrupted_rebuild_resumes_from_its_last_checkpoint()
    {
        var log = new InMemoryStreamLog { MaxPerRead = 500 };
        for (int i = 0; i < 100_000; i++)
        {
            log.Append(Names.Added(i));
        }

        var options = Options(_dir, checkpointRecords: 10_000);
        log.FailAt = 55_000; // the log fails halfway through the rebuild, and the process is stopped there
        using (var stop = new CancellationTokenSource())
        using (var filter = new StreamExistenceFilter(options, log, new RecordingObserver { OnLogReadFailed = _ => stop.Cancel() }))
        {
            filter.Open();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => filter.CatchUpAsync(stop.Token));
            Assert.Equal(FilterState.Initializing, filter.State);
            Assert.True(filter.MightExist("anything")); // an unfinished catch-up answers "maybe"
            Assert.Equal(50_000, filter.CheckpointPosition);
        }

        log.FailAt = long.MaxValue;
        long readBefore = log.RecordsRead;
        using StreamExistenceFilter resumed = await OpenReadyAsync(options, log);
        Assert.Equal(50_000, log.RecordsRead - readBefore); // from the checkpoint, not from zero
        Assert.Equal(0, FalseNegatives(resumed, 100_000));
    }

    [Fact]
    public async Task A_size_change_serves_from_the_old_file_until_the_new_one_swaps_in()
    {
        var log = new InMemoryStreamLog();
        await WriteCheckpointedAsync(Options(_dir, size: 1 << 18), log, 20_000);

        var observer = new RecordingObserver();
        var resized = Options(_dir, size: 1 << 20);
        using var filter2 = new StreamExistenceFilter(resized, log, observer);
        filter2.Open();
        Assert.Equal(1 << 18, filter2.ServingSizeBytes);
        Task catchUp = filter2.CatchUpAsync(CancellationToken.None);
        await filter2.WhenReady;

        // Appends keep coming while the new file is built; each must be found before and after the swap.
        int appended = 20_000;
        while (!catchUp.IsCompleted)
        {
            Append(log, filter2, appended++, 1);
            Assert.Equal(0, FalseNegatives(filter2, appended));
        }

        await catchUp;
        Append(log, filter2, appended, 1_000);
        appended += 1_000;
        Assert.Equal(1, observer.ResizesCompleted);
        Assert.Equal(1 << 20, filter2.ServingSizeBytes);
        Assert.False(filter2.IsResizing);
        Assert.Equal(0, FalseNegatives(filter2, appended));
        filter2.Checkpoint(log.EndPosition);
        Assert.False(File.Exists(ResizeFiles.PathFor(resized.FilterPath)));
        filter2.Dispose();

        using FilterFile onDisk = FilterFile.OpenExisting(resized.FilterPath);
        Assert.Equal(1 << 20, onDisk.Header.SizeBytes);
        Assert.Equal(onDisk.Header.FileId, CheckpointFile.TryRead(CheckpointFile.PathFor(resized.FilterPath))!.FilterFileId);
    }

    [Fact]
    public async Task A_crash_during_the_resize_leaves_the_old_filter_and_the_resize_resumes()
    {
        var log = new InMemoryStreamLog { MaxPerRead = 200 };
        for (int i = 0; i < 30_000; i++)
        {
            log.Append(Names.Added(i));
        }

        using (StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir, size: 1 << 18), log)) { filter.Checkpoint(30_000); }

        var resized = Options(_dir, size: 1 << 20, checkpointRecords: 5_000);
        log.FailAt = 12_000; // stopped while building the new file (the old one needed no catch-up)
        using (var stop = new CancellationTokenSource())
        using (var crashing = new StreamExistenceFilter(resized, log, new RecordingObserver { OnLogReadFailed = _ => stop.Cancel() }))
        {
            crashing.Open();
            await Assert.ThrowsAnyAsync<OperationCanceledException>(() => crashing.CatchUpAsync(stop.Token));
            Assert.True(crashing.IsReady); // still serving from the old file
            Assert.Equal(0, FalseNegatives(crashing, 30_000));
        }

        Assert.True(File.Exists(ResizeFiles.PathFor(resized.FilterPath)));
        log.FailAt = long.MaxValue;
        long readBefore = log.RecordsRead;
        var observer = new RecordingObserver();
        using StreamExistenceFilter resumed = await OpenReadyAsync(resized, log, observer);
        Assert.False(resumed.IsResizing); // CatchUpAsync, awaited by OpenReadyAsync, includes the resize and its swap
        Assert.Equal(30_000 - 10_000, log.RecordsRead - readBefore); // resumed from the resize file's checkpoint at 10,000
        Assert.Equal(1 << 20, resumed.ServingSizeBytes);
        Assert.Equal(0, FalseNegatives(resumed, 30_000));
    }

    [Fact]
    public async Task A_crash_between_the_swaps_two_renames_is_finished_on_open()
    {
        var log = new InMemoryStreamLog();
        var resized = Options(_dir, size: 1 << 20);
        await WriteCheckpointedAsync(Options(_dir, size: 1 << 18), log, 5_000);

        // Build the new file as a resize would, then perform only the first rename.
        string resizePath = ResizeFiles.PathFor(resized.FilterPath);
        using (FilterFile building = FilterFile.Create(resizePath, new FilterFileOptions { SizeBytes = 1 << 20 }))
        {
            for (int i = 0; i < 5_000; i++)
            {
                building.Add(Names.Added(i));
            }

            building.Flush();
            CheckpointFile.Write(CheckpointFile.PathFor(resizePath), new Checkpoint(5_000, building.Header.FileId));
        }

        File.Move(resizePath, resized.FilterPath, overwrite: true);

        var observer = new RecordingObserver();
        long readBefore = log.RecordsRead;
        using StreamExistenceFilter reopened = await OpenReadyAsync(resized, log, observer);
        Assert.Empty(observer.IgnoredCheckpoints);
        Assert.Equal(0, log.RecordsRead - readBefore);
        Assert.Equal(0, FalseNegatives(reopened, 5_000));
    }

    [Fact]
    public async Task An_old_file_beyond_repair_is_rebuilt_at_the_new_size_with_readiness_false_until_caught_up()
    {
        var log = new InMemoryStreamLog();
        await WriteCheckpointedAsync(Options(_dir, size: 64 * 500), log, 5_000);

        Integrity.CorruptionTests.CorruptRandomLines(Options(_dir).FilterPath, 0.5, seed: 9);
        var observer = new RecordingObserver();
        using var filter = new StreamExistenceFilter(Options(_dir, size: 1 << 20), log, observer);
        filter.Open();
        Assert.False(filter.IsReady);
        Assert.False(filter.IsResizing);
        Assert.Equal(1 << 20, filter.ServingSizeBytes);
        await filter.CatchUpAsync(CancellationToken.None);
        Assert.Equal([RebuildReason.TooCorrupted], observer.Rebuilds);
        Assert.Equal(0, FalseNegatives(filter, 5_000));
    }
}
