using EventFilter.Durability;
using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

/// <summary>
/// The resize-publication race (docs/design.md, "Resize"): an add made just before the new file is published reaches
/// the old file only, and its record becomes durable only after the new file's catch-up has read the log's durable end.
/// The swap must wait for that record, or the name is lost with the old file.
/// </summary>
public sealed class ResizePublicationTests : IDisposable
{
    private const int Durable = 5_000;
    private const int Late = 50;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task An_add_that_missed_publication_and_is_made_durable_after_the_catch_up_read_the_end_survives_the_swap()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenWithLateAddsAsync(log, observer);
        Task newFileReadTheDurableEnd = observer.WhenCheckpointed(ResizeFiles.PathFor(Options(_dir).FilterPath), Durable);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        // Open the gate only once the new file's catch-up has read everything durable (or, were the fix missing, once
        // it has already swapped): the fsync that "ends after the catch-up passed its position".
        await Task.WhenAny(newFileReadTheDurableEnd, catchUp).WaitAsync(TimeSpan.FromMinutes(1));
        log.MakeDurable();
        await catchUp.WaitAsync(TimeSpan.FromMinutes(1));

        Assert.Equal(1, observer.ResizesCompleted);
        Assert.Equal(1 << 20, filter.ServingSizeBytes);
        Assert.Equal(0, FalseNegatives(filter, Durable + Late));
    }

    [Fact]
    public async Task A_truncation_of_the_pending_records_ends_the_wait_for_them()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenWithLateAddsAsync(log, observer);
        Task waiting = observer.WhenCheckpointed(ResizeFiles.PathFor(Options(_dir).FilterPath), Durable);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);
        await waiting.WaitAsync(TimeSpan.FromMinutes(1));

        // The host's write failed and it cut the records it never acknowledged: nothing is left to wait for.
        log.TruncateTo(Durable);
        filter.TruncateTo(Durable);
        await catchUp.WaitAsync(TimeSpan.FromMinutes(1));

        Assert.Equal(1 << 20, filter.ServingSizeBytes);
        Assert.Equal(0, FalseNegatives(filter, Durable));
    }

    [Fact]
    public async Task Records_cut_before_an_online_rebuild_starts_are_not_waited_for()
    {
        // Their adds raised the serving file's record end; the truncation must lower it, or the rebuild would wait for
        // records that will never be durable (until the log happened to grow past them).
        var log = new InMemoryStreamLog();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log);
        Append(log, filter, 0, Durable);
        for (int i = Durable; i < Durable + Late; i++)
        {
            filter.Add(Names.Added(i), log.AppendPending(Names.Added(i)));
        }

        log.TruncateTo(Durable);
        filter.TruncateTo(Durable);
        await filter.RebuildAsync(CancellationToken.None).WaitAsync(TimeSpan.FromMinutes(1));

        Assert.Equal(0, FalseNegatives(filter, Durable));
    }

    // A filter of 256 KiB checkpointed over the durable records, reopened at 1 MiB (a resize pending), with the late
    // adds made: before the new file exists (so they reach the old one only), their records appended but held back
    // from durability, as a group commit's are between its write and its fsync.
    private async Task<StreamExistenceFilter> OpenWithLateAddsAsync(InMemoryStreamLog log, RecordingObserver observer)
    {
        await WriteCheckpointedAsync(Options(_dir, size: 1 << 18), log, Durable);
        var filter = new StreamExistenceFilter(Options(_dir, size: 1 << 20), log, observer);
        filter.Open();
        Assert.Equal(1 << 18, filter.ServingSizeBytes);
        for (int i = Durable; i < Durable + Late; i++)
        {
            filter.Add(Names.Added(i), log.AppendPending(Names.Added(i)));
        }

        return filter;
    }
}
