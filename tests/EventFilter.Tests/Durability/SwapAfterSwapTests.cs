using System.Runtime.CompilerServices;
using EventFilter.Durability;
using EventFilter.Storage;
using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

/// <summary>
/// Resizes and online rebuilds one after another in one process, in every order (docs/design.md, "Resize" and
/// "Online rebuild"). A swap hands the shared name's writer lock to the file swapped in and frees the build file's,
/// so the next build can claim <c>….resize</c> again. Pins the failure where the second rebuild of a process (or a
/// rebuild after a resize) threw <see cref="FilterFileInUseException"/> on <c>….resize.lock</c>, which the file
/// swapped in before still held.
/// </summary>
public sealed class SwapAfterSwapTests : IDisposable
{
    private const int Cycles = 10;
    private const int PerBuild = 400;
    private const int AfterSwap = 100;
    private static readonly long[] Sizes = [1 << 16, 1 << 17, 1 << 18];
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Ten_cycles_of_resize_resize_rebuild_rebuild_in_one_process_each_swap_with_no_false_negative()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        long size = Sizes[0];
        StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir, size), log, observer);
        string path = Options(_dir).FilterPath;
        int appended = 0;
        try
        {
            for (int cycle = 0; cycle < Cycles; cycle++)
            {
                // Every order once a cycle: resize after rebuild (the previous cycle's), resize after resize, rebuild
                // after resize, rebuild after rebuild. A resize is a new instance at another size, as in a host restarted
                // with a new setting; the one before is checkpointed and disposed first.
                foreach (long next in (long[])[Sizes[((2 * cycle) + 1) % 3], Sizes[((2 * cycle) + 2) % 3]])
                {
                    Assert.NotEqual(size, next);
                    filter.Checkpoint(log.EndPosition);
                    filter.Dispose();
                    filter = new StreamExistenceFilter(Options(_dir, next), log, observer);
                    int resizes = observer.ResizesCompleted;
                    appended = await ResizeWhileAppendingAsync(log, filter, appended);
                    Assert.Equal(resizes + 1, observer.ResizesCompleted);
                    Assert.Equal(next, filter.ServingSizeBytes);
                    AssertTheSharedNameIsLockedAndTheBuildFileIsNot(path);
                    size = next;
                }

                for (int rebuild = 0; rebuild < 2; rebuild++)
                {
                    int rebuilt = observer.OnlineRebuildsCompleted.Count;
                    string before = FilterHeaderBytes.Read(path);
                    log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
                    appended = await AppendWhileBuildingAsync(log, filter, filter.RebuildAsync(CancellationToken.None), appended);
                    Assert.Equal(rebuilt + 1, observer.OnlineRebuildsCompleted.Count);
                    Assert.NotEqual(before, FilterHeaderBytes.Read(path)); // a fresh file: a new file id
                    AssertTheSharedNameIsLockedAndTheBuildFileIsNot(path);
                }
            }

            filter.Checkpoint(log.EndPosition);
        }
        finally
        {
            filter.Dispose();
        }

        Assert.Equal(Cycles * 4 * (PerBuild + AfterSwap), appended);
        using StreamExistenceFilter reopened = await OpenReadyAsync(Options(_dir, size), log);
        Assert.Equal(0, FalseNegatives(reopened, appended));
    }

    // The old file serves once caught up (it has nothing to read: checkpointed at the log's end), and the resize's
    // reads are held until appends are going, so they race the publication of the new file.
    private static async Task<int> ResizeWhileAppendingAsync(InMemoryStreamLog log, StreamExistenceFilter filter, int from)
    {
        filter.Open();
        log.Gate = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);
        await filter.WhenReady.WaitAsync(TimeSpan.FromMinutes(1));
        return await AppendWhileBuildingAsync(log, filter, catchUp, from);
    }

    // Appends on another thread while the build's reads are held at the gate, checks every name so far, lets the build
    // finish, then appends a few more, which only the file swapped in receives.
    private static async Task<int> AppendWhileBuildingAsync(InMemoryStreamLog log, StreamExistenceFilter filter, Task build, int from)
    {
        var reached = new StrongBox<int>(from);
        Task appending = Task.Run(() =>
        {
            for (int i = from; i < from + PerBuild; i++)
            {
                Append(log, filter, i, 1);
                Volatile.Write(ref reached.Value, i + 1);
            }
        });

        Poll.Until(() => Volatile.Read(ref reached.Value) >= from + (PerBuild / 4), "appends while the build's reads are held");
        Assert.Equal(0, FalseNegatives(filter, Volatile.Read(ref reached.Value)));
        log.Gate!.SetResult();
        await build.WaitAsync(TimeSpan.FromMinutes(1));
        await appending.WaitAsync(TimeSpan.FromMinutes(1));
        Assert.False(filter.IsResizing);
        Assert.Null(filter.OnlineRebuild);
        int end = from + PerBuild;
        Append(log, filter, end, AfterSwap);
        Assert.Equal(0, FalseNegatives(filter, end + AfterSwap));
        return end + AfterSwap;
    }

    // The file serving under the shared name holds that name's writer lock (no second writer may open it), and nothing
    // holds the build file's any more: the next build creates that file again.
    private static void AssertTheSharedNameIsLockedAndTheBuildFileIsNot(string path)
    {
        Assert.Throws<FilterFileInUseException>(() => MappedFile.AcquireWriterLock(path).Dispose());
        MappedFile.AcquireWriterLock(ResizeFiles.PathFor(path)).Dispose();
    }
}
