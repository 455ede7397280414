using EventFilter.Durability;

namespace EventFilter.Tests.Durability;

/// <summary>
/// A catch-up checkpoints at least <c>CatchUpCheckpointRecords</c> apart, and no more often than keeps its
/// checkpoints' time within 1/20 of the catch-up's (docs/design.md, "Open sequence", step 6). Time is the injected
/// clock's: each read of the log and each checkpoint moves it on by a second, so the spacing is exact.
/// </summary>
public sealed class CatchUpCheckpointTests : IDisposable
{
    private const int Batch = 4096, Batches = 40;
    private readonly TempDirectory _dir = new();
    private readonly SteppedTime _time = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Under_a_clock_that_stands_still_the_record_count_alone_decides()
    {
        List<long> positions = await CatchUpAsync(moveClock: false);

        // One checkpoint per batch (each batch reaches the option's count), then the final one at the end.
        Assert.Equal(Enumerable.Range(1, Batches).Select(b => (long)b * Batch), positions);
    }

    [Fact]
    public async Task Checkpoints_that_take_as_long_as_a_read_come_at_least_nineteen_reads_apart()
    {
        List<long> positions = await CatchUpAsync(moveClock: true);

        // The first after the first batch (no checkpoint timed yet); each later one once the reads since the last took
        // 19 times what a checkpoint of the whole file would (a second: the first one wrote about the whole file).
        Assert.Equal(Batch, positions[0]);
        long[] during = [.. positions.Take(positions.Count - 1)];
        Assert.InRange(during.Length, 2, 3);
        Assert.All(during.Zip(during.Skip(1)), pair => Assert.True(pair.Second - pair.First >= CatchUpCheckpoints.WorkPerCheckpointTime * Batch, $"{pair.First} then {pair.Second}"));
        Assert.Equal((long)Batches * Batch, positions[^1]);
    }

    [Fact]
    public async Task A_file_below_the_timed_size_checkpoints_by_the_record_count_alone_however_long_checkpoints_take()
    {
        List<long> positions = await CatchUpAsync(moveClock: true, timedFrom: 1L << 20);

        Assert.Equal(Enumerable.Range(1, Batches).Select(b => (long)b * Batch), positions);
    }

    [Fact]
    public void Before_any_checkpoint_is_timed_the_record_count_decides()
    {
        var schedule = new CatchUpCheckpoints(records: 10, _time);
        Assert.False(schedule.Added(4, expected: 5, fileBytes: 1 << 20));
        Assert.False(schedule.Added(4, expected: 100, fileBytes: 1 << 20));
        Assert.True(schedule.Added(4, expected: 100, fileBytes: 1 << 20));
    }

    [Fact]
    public void A_large_catch_up_checkpoints_after_its_first_batch_to_time_the_device_and_then_by_time()
    {
        const long File = 1 << 30;
        var schedule = new CatchUpCheckpoints(records: 16_000_000, _time);
        Assert.True(schedule.Added(1 << 20, expected: 100_000_000, fileBytes: File));

        // That checkpoint wrote a sixteenth of the file in a second: the whole file would take 16 s, so the next is
        // due after 16 x 19 s of work, and not before the option's count of records either.
        Assert.True(schedule.Take(() => Advance(TimeSpan.FromSeconds(1)), bytes: File / 16));
        Assert.Equal(0, schedule.Since);
        for (int batch = 0; batch < 15; batch++)
        {
            Assert.False(schedule.Added(1 << 20, expected: 100_000_000, fileBytes: File));
        }

        _time.Advance(TimeSpan.FromSeconds((16 * 19) - 1));
        Assert.False(schedule.Added(1 << 20, expected: 100_000_000, fileBytes: File));
        _time.Advance(TimeSpan.FromSeconds(1));
        Assert.True(schedule.Added(1 << 20, expected: 100_000_000, fileBytes: File));
    }

    [Fact]
    public void A_small_first_batch_or_catch_up_does_not_checkpoint_early()
    {
        Assert.False(new CatchUpCheckpoints(records: 16_000_000, _time).Added(4096, expected: 100_000_000, fileBytes: 1 << 20));
        Assert.False(new CatchUpCheckpoints(records: 16_000_000, _time).Added(1 << 20, expected: 16_000_000, fileBytes: 1 << 30));
    }

    [Fact]
    public void A_checkpoint_refused_after_a_truncation_leaves_the_count_and_the_timing()
    {
        var schedule = new CatchUpCheckpoints(records: 10, _time);
        Assert.True(schedule.Added(10, expected: 100, fileBytes: 1000));
        Assert.False(schedule.Take(() => false, bytes: 1000));
        Assert.Equal(10, schedule.Since);
        Assert.True(schedule.Added(1, expected: 100, fileBytes: 1000));
    }

    private bool Advance(TimeSpan by)
    {
        _time.Advance(by);
        return true;
    }

    // A fresh filter caught up on one thread (no read ahead: the clock moves only on the catch-up's own thread) from
    // 40 batches of names, a checkpoint due by records after each; returns the positions of every checkpoint written.
    private async Task<List<long>> CatchUpAsync(bool moveClock, long timedFrom = 0)
    {
        var log = new ScriptedLog([.. Enumerable.Range(0, Batch * Batches).Select(i => ($"s-{i}", (long)i + 1))]);
        if (moveClock)
        {
            log.Override = (_, _, _) => Advance(TimeSpan.FromSeconds(1)) && false; // each read takes a second
        }

        var observer = new TimingObserver(moveClock ? _time : null);
        var options = new StreamExistenceFilterOptions
        {
            DataDirectory = _dir.Path, SizeBytes = 64 * 1024, TimeProvider = _time, CatchUpCheckpointRecords = Batch, CatchUpThreads = 1,
            CatchUpTimedCheckpointBytes = timedFrom,
        };
        using var filter = new StreamExistenceFilter(options, log, observer);
        filter.Open();
        await filter.CatchUpAsync(CancellationToken.None).WaitAsync(TimeSpan.FromMinutes(2));
        Assert.Equal(FilterState.Ready, filter.State);
        Assert.All(Enumerable.Range(0, Batch * Batches), i => Assert.True(filter.MightExist($"s-{i}"), $"s-{i}"));
        return [.. observer.Positions.Where(p => p > 0).Distinct()]; // the final checkpoint may repeat the last position
    }

    // Each checkpoint takes a second of the clock when it moves: the observer is told inside the checkpoint.
    private sealed class TimingObserver(SteppedTime? time) : FilterObserver
    {
        public List<long> Positions { get; } = [];

        public override void CheckpointWritten(string path, long position, FlushResult flush)
        {
            Positions.Add(position);
            time?.Advance(TimeSpan.FromSeconds(1));
        }
    }
}
