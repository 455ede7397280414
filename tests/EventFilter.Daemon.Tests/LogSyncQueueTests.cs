using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Formats;
using EventFilter.Daemon.Server;
using Microsoft.Extensions.Logging.Abstractions;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The group commit of --log-sync always: batches waiting for their fsyncs are released once their filters' logs are
/// synced, a deleted filter releases its waiters instead of failing them, and a batch queued after the stop is failed,
/// never acknowledged unsynced.
/// </summary>
public sealed class LogSyncQueueTests
{
    private static readonly FilterParameters Small = new(1_000, 0.01, 2, NonScaling: false);

    [Fact]
    public async Task Batches_of_several_connections_are_released_once_their_logs_are_synced()
    {
        using var directory = new TempDirectory();
        using FilterStore store = Open(directory.Path);
        NamedFilter first = store.Create("first"u8, Small)!;
        NamedFilter second = store.Create("second"u8, Small)!;
        using var queue = new LogSyncQueue();

        LogSyncWait[] waits = [Batch(first), Batch(second), Batch(first, second)];
        await Task.WhenAll(waits.Select(w => WaitAsync(w, queue)));

        // Reused for the next batch, as a connection does.
        await WaitAsync(waits[0], queue);
    }

    [Fact]
    public async Task A_filter_deleted_before_its_sync_releases_the_batch()
    {
        using var directory = new TempDirectory();
        using FilterStore store = Open(directory.Path);
        NamedFilter doomed = store.Create("doomed"u8, Small)!;
        LogSyncWait wait = Batch(doomed);
        Assert.True(store.Delete("doomed"u8));
        using var queue = new LogSyncQueue();

        await WaitAsync(wait, queue);
    }

    [Fact]
    public async Task A_batch_queued_after_the_stop_is_failed_not_acknowledged()
    {
        using var directory = new TempDirectory();
        using FilterStore store = Open(directory.Path);
        LogSyncWait wait = Batch(store.Create("late"u8, Small)!);
        var queue = new LogSyncQueue();
        queue.Dispose();

        await Assert.ThrowsAsync<ObjectDisposedException>(() => WaitAsync(wait, queue));
    }

    /// <summary>Starts <paramref name="wait"/> as a connection does; completes when its resume is called, with <see cref="LogSyncWait.Finish"/>'s outcome.</summary>
    private static Task WaitAsync(LogSyncWait wait, LogSyncQueue queue)
    {
        var resumed = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        wait.Start(queue, () => resumed.SetResult());
        return resumed.Task.ContinueWith(_ => wait.Finish(), TaskScheduler.Default);
    }

    private static FilterStore Open(string path)
    {
        var store = new FilterStore(path, LogSync.Always, new FilterObserver(), NullLogger.Instance, TimeProvider.System);
        store.Open();
        return store;
    }

    /// <summary>A batch that added one item to each of <paramref name="filters"/> and wrote their logs, as a connection does.</summary>
    private static LogSyncWait Batch(params NamedFilter[] filters)
    {
        var wait = new LogSyncWait();
        foreach (NamedFilter filter in filters)
        {
            filter.Add([(ulong)Random.Shared.NextInt64()], new bool[1], out _);
            filter.WriteLog();
            wait.Filters.Add(filter);
        }

        return wait;
    }
}
