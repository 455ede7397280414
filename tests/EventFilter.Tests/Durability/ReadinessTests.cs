using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

/// <summary>
/// Readiness comes when every durable name is in, not after the final checkpoint of catch-up, which only spares the
/// next start a re-read (docs/design.md, "Open sequence", step 7).
/// </summary>
public sealed class ReadinessTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task The_filter_is_ready_when_its_final_catch_up_checkpoint_is_written()
    {
        var log = new InMemoryStreamLog();
        log.AppendRange(0, 10_000);
        var observer = new ReadinessAtCheckpoint();
        using var filter = new StreamExistenceFilter(Options(_dir), log, observer);
        observer.Filter = filter;
        filter.Open();
        await filter.CatchUpAsync(CancellationToken.None);

        Assert.Equal([(10_000L, true)], observer.Seen);
        Assert.All(Enumerable.Range(0, 10_000), i => Assert.True(filter.MightExist(InMemoryStreamLog.Name(i))));
    }

    /// <summary>Samples readiness inside the checkpoint's report, which comes right after its flush.</summary>
    private sealed class ReadinessAtCheckpoint : FilterObserver
    {
        public StreamExistenceFilter? Filter { get; set; }

        public List<(long Position, bool Ready)> Seen { get; } = [];

        public override void CheckpointWritten(string path, long position, FlushResult flush) => Seen.Add((position, Filter!.IsReady));
    }
}
