using EventFilter.Tests.Integrity;
using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

/// <summary>
/// Repaired damage heals without downtime (docs/design.md, "Online rebuild"): past the all-ones threshold, or when asked,
/// a fresh file of the same size is caught up beside the serving one and swapped in, with no false negative meanwhile.
/// </summary>
public sealed class OnlineRebuildTests : IDisposable
{
    private const int Written = 20_000;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Damage_past_the_all_ones_threshold_is_rebuilt_online_while_appends_continue()
    {
        var log = new InMemoryStreamLog();
        StreamExistenceFilterOptions options = Options(_dir);
        await WriteCheckpointedAsync(options, log, Written);
        CorruptionTests.CorruptRandomLines(options.FilterPath, fraction: 0.03, seed: 3);

        var observer = new RecordingObserver();
        using var filter = new StreamExistenceFilter(options, log, observer);
        filter.Open();
        Assert.True(observer.LastVerification!.AllOnesLines > observer.LastVerification.LinesChecked / 100);

        // Held at the gate: the catch-up to the checkpoint reads nothing (the log ends there), the rebuild's first read waits.
        log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);
        await filter.WhenReady;
        int appended = await AppendWhileHeldAsync(log, filter, catchUp);

        Assert.Equal([RebuildReason.AllOnesLines], observer.Rebuilds);
        Assert.Equal([RebuildReason.AllOnesLines], observer.OnlineRebuildsCompleted);
        Assert.Equal(0, observer.ResizesCompleted);
        Assert.Null(filter.OnlineRebuild);
        Assert.Equal(0, filter.ComputeStatistics()!.AllOnesLines);
        Assert.Equal(0, FalseNegatives(filter, appended));
    }

    [Fact]
    public async Task Damage_below_the_threshold_is_left_to_answer_maybe()
    {
        var log = new InMemoryStreamLog();
        StreamExistenceFilterOptions options = new() { DataDirectory = _dir.Path, SizeBytes = 1 << 20, CatchUpCheckpointRecords = 1_000_000, AllOnesRebuildThreshold = 0.05 };
        await WriteCheckpointedAsync(options, log, Written);
        CorruptionTests.CorruptRandomLines(options.FilterPath, fraction: 0.03, seed: 3);

        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenReadyAsync(options, log, observer);

        Assert.Empty(observer.Rebuilds);
        Assert.True(filter.ComputeStatistics()!.AllOnesLines > 0);
        Assert.Equal(0, FalseNegatives(filter, Written));
    }

    [Fact]
    public async Task A_requested_rebuild_swaps_in_a_fresh_file_while_appends_continue()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        StreamExistenceFilterOptions options = Options(_dir);
        using StreamExistenceFilter filter = await OpenReadyAsync(options, log, observer);
        Append(log, filter, 0, Written);
        filter.Checkpoint(log.EndPosition);
        Guid oldFileId = FileId(options);

        log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task rebuild = filter.RebuildAsync(CancellationToken.None);
        await Assert.ThrowsAsync<InvalidOperationException>(() => filter.RebuildAsync(CancellationToken.None));
        int appended = await AppendWhileHeldAsync(log, filter, rebuild, from: Written);

        Assert.Equal([RebuildReason.Requested], observer.OnlineRebuildsCompleted);
        Assert.False(filter.IsResizing);
        Assert.Equal(0, FalseNegatives(filter, appended));
        filter.Checkpoint(log.EndPosition);
        Assert.NotEqual(oldFileId, FileId(options));
    }

    [Fact]
    public async Task A_cancelled_rebuild_leaves_the_old_file_serving_and_can_be_asked_again()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log, observer);
        Append(log, filter, 0, Written);

        log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        using var stop = new CancellationTokenSource();
        Task cancelled = filter.RebuildAsync(stop.Token);
        Append(log, filter, Written, 100);
        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => cancelled);

        Assert.Null(filter.OnlineRebuild);
        Assert.Empty(observer.OnlineRebuildsCompleted);
        Assert.Equal(0, FalseNegatives(filter, Written + 100));

        log.Gate.SetResult();
        await filter.RebuildAsync(CancellationToken.None);
        Assert.Equal([RebuildReason.Requested], observer.OnlineRebuildsCompleted);
        Assert.Equal(0, FalseNegatives(filter, Written + 100));
    }

    [Fact]
    public async Task Only_a_ready_filter_can_be_rebuilt_online()
    {
        var log = new InMemoryStreamLog();
        using var filter = new StreamExistenceFilter(Options(_dir), log);
        filter.Open();
        InvalidOperationException refused = await Assert.ThrowsAsync<InvalidOperationException>(() => filter.RebuildAsync(CancellationToken.None));
        Assert.Contains("Initializing", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData(0.0)]
    [InlineData(-0.1)]
    [InlineData(1.5)]
    [InlineData(double.NaN)]
    public void An_all_ones_threshold_outside_0_to_1_is_refused(double threshold) =>
        Assert.Throws<ArgumentOutOfRangeException>(() => new StreamExistenceFilterOptions { DataDirectory = _dir.Path, AllOnesRebuildThreshold = threshold }.Validate());

    // Appends (checking every name so far) while the new file's reads are held, then lets it finish.
    private static async Task<int> AppendWhileHeldAsync(InMemoryStreamLog log, StreamExistenceFilter filter, Task building, int from = Written)
    {
        int appended = from;
        for (int round = 0; round < 10; round++)
        {
            Append(log, filter, appended, 100);
            appended += 100;
            Assert.Equal(0, FalseNegatives(filter, appended));
        }

        log.Gate!.SetResult();
        await building.WaitAsync(TimeSpan.FromMinutes(1));
        Append(log, filter, appended, 100);
        return appended + 100;
    }

    private static Guid FileId(StreamExistenceFilterOptions options)
    {
        using FilterFile onDisk = FilterFile.OpenExisting(options.FilterPath);
        return onDisk.Header.FileId;
    }
}
