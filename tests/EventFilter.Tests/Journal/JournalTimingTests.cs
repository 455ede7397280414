namespace EventFilter.Tests.Journal;

/// <summary>Flushes and folds report their duration on the options' clock, not the machine's.</summary>
public sealed class JournalTimingTests : IDisposable
{
    private static readonly TimeSpan Step = TimeSpan.FromMilliseconds(7);
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public void A_flush_and_a_fold_last_what_the_options_clock_says()
    {
        var options = new FilterFileOptions { SizeBytes = 1 << 20, TimeProvider = new SteppingClock(Step) };
        using FilterFile filter = FilterFile.Create(Path.Combine(_dir.Path, "timed.filter"), options);
        filter.Add("timed-1");
        Assert.Equal(Step, filter.Flush().Duration);

        filter.Add("timed-2");
        filter.Flush();
        Assert.Equal(Step, filter.FoldJournal().Duration);
    }

    // Each reading is one step after the last: an operation that reads it at its start and end lasts exactly one step.
    private sealed class SteppingClock(TimeSpan step) : TimeProvider
    {
        private long _now;

        public override long TimestampFrequency => TimeSpan.TicksPerSecond;

        public override long GetTimestamp() => Interlocked.Add(ref _now, step.Ticks);
    }
}
