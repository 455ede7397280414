using static EventFilter.Tests.Durability.FilterHarness;

namespace EventFilter.Tests.Durability;

/// <summary>
/// The filter's run-time checks of the host contract (docs/design.md, "Host contract"): what a checkpoint may claim,
/// and each rule a host can break being reported and made safe.
/// </summary>
public sealed class HostContractTests : IDisposable
{
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_checkpoint_at_the_durable_end_claims_no_more_than_the_adds_reached()
    {
        // A host that adds after its fsync, checkpointing at the log's durable end from another thread: the record is
        // durable but its name not yet added. Claiming the durable end would lose the name in a crash right after.
        var log = new InMemoryStreamLog();
        log.AppendRange(0, 100);
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log);
        long added = filter.CheckpointPosition!.Value;
        long durable = log.Append(Names.Added(100));

        filter.Checkpoint(log.EndPosition);
        Assert.Equal(added, filter.CheckpointPosition);

        filter.Add(Names.Added(100), durable);
        filter.Checkpoint(log.EndPosition);
        Assert.Equal(durable, filter.CheckpointPosition);
    }

    [Fact]
    public async Task An_add_below_a_position_the_host_checkpointed_is_reported_as_late()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log, observer);
        long first = log.Append("first"), second = log.Append("second");

        // Two adders after the fsync, out of order: the second one's end lets the checkpoint claim the first record.
        filter.Add("second", second);
        filter.Checkpoint(log.EndPosition);
        Assert.Equal(second, filter.CheckpointPosition);
        filter.Add("first", first);

        (HostContractViolation violation, string detail) = Assert.Single(observer.Violations);
        Assert.Equal(HostContractViolation.LateAdd, violation);
        Assert.Contains($"ending at {first}", detail);
        Assert.True(filter.MightExist("first"));
    }

    [Fact]
    public async Task A_late_add_raced_by_a_checkpoint_further_on_is_reported_as_late_not_as_a_cut()
    {
        // Regression: the late add read the log's end, then a checkpoint from another thread at a newer end raised the
        // claim before the add compared the two; a log that only grew looked cut (TruncationNotReported, and the filter
        // truncated to the stale end). The checkpoint runs where that thread's would: after the add's read of the end.
        var log = new ScriptedLog();
        var observer = new RecordingObserver();
        using var filter = new StreamExistenceFilter(Options(_dir), log, observer);
        filter.Open();
        await filter.CatchUpAsync(CancellationToken.None);
        log.SetEnd(2);
        filter.Add("second", 2);
        filter.Checkpoint(log.EndPosition); // claims the record of "first", ending at 1, before its add
        filter.Add("third", 3);
        log.EndRead = _ =>
        {
            log.EndRead = null;
            log.SetEnd(3);
            filter.Checkpoint(log.EndPosition);
        };

        filter.Add("first", 1);

        (HostContractViolation violation, string detail) = Assert.Single(observer.Violations);
        Assert.Equal(HostContractViolation.LateAdd, violation);
        Assert.Contains("ending at 1", detail);
        Assert.Empty(observer.Truncations);
        Assert.Equal(3, filter.CheckpointPosition);
    }

    [Fact]
    public async Task Adding_again_a_record_that_catch_up_read_is_no_violation()
    {
        var log = new InMemoryStreamLog();
        log.AppendRange(0, 10);
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log, observer);
        filter.Checkpoint(log.EndPosition);

        filter.Add(Names.Added(3), 4);

        Assert.Empty(observer.Violations);
    }

    [Fact]
    public async Task A_checkpoint_that_moves_back_without_a_truncation_is_reported_and_treated_as_one()
    {
        var log = new InMemoryStreamLog();
        log.AppendRange(0, 100);
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log, observer);
        filter.Checkpoint(100);

        filter.Checkpoint(60);

        Assert.Equal([HostContractViolation.TruncationNotReported], observer.Violations.Select(v => v.Violation));
        Assert.Equal(60, filter.CheckpointPosition);
        Assert.Contains((100L, 60L), observer.Truncations);
    }

    [Fact]
    public async Task A_checkpoint_below_the_previous_one_after_a_truncation_is_no_violation()
    {
        var log = new InMemoryStreamLog();
        log.AppendRange(0, 100);
        var observer = new RecordingObserver();
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log, observer);
        filter.Checkpoint(100);

        log.TruncateTo(60);
        filter.TruncateTo(60);
        filter.Checkpoint(log.EndPosition);

        Assert.Empty(observer.Violations);
        Assert.Equal(60, filter.CheckpointPosition);
    }

    [Fact]
    public void An_add_before_open_throws_and_names_the_rule()
    {
        using var filter = new StreamExistenceFilter(Options(_dir), new InMemoryStreamLog());

        var error = Assert.Throws<InvalidOperationException>(() => filter.Add("early", 1));

        Assert.Contains("Call Open before the first Add", error.Message);
    }

    [Fact]
    public async Task An_add_after_dispose_is_reported()
    {
        var log = new InMemoryStreamLog();
        var observer = new RecordingObserver();
        StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), log, observer);
        filter.Dispose();

        filter.Add("late", log.Append("late"));

        Assert.Equal([HostContractViolation.AddAfterDispose], observer.Violations.Select(v => v.Violation));
    }

    [Fact]
    public async Task A_negative_record_end_is_refused()
    {
        using StreamExistenceFilter filter = await OpenReadyAsync(Options(_dir), new InMemoryStreamLog());

        Assert.Throws<ArgumentOutOfRangeException>(() => filter.Add("s", -1));
    }
}
