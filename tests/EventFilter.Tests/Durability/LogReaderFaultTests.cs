namespace EventFilter.Tests.Durability;

/// <summary>
/// A fault of the log may delay readiness, never move the reader past what it read (docs/design.md, "The log's rules"):
/// a read past the end is not taken as progress, and a log that throws is retried on the injected clock, reported once
/// per episode after the patience, and left behind by itself when it answers again. Each test fails without its fix.
/// </summary>
public sealed class LogReaderFaultTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(5);
    private readonly TempDirectory _dir = new();
    private readonly SteppedTime _time = new();
    private readonly RecordingObserver _observer = new();

    public void Dispose() => _dir.Dispose();

    /// <summary>The report's repro with a log that never grows: kept as the position, the overshoot left catch-up stuck for good.</summary>
    [Fact]
    public async Task A_read_past_the_end_is_read_again_and_no_durable_record_is_skipped()
    {
        var log = new OvershootLog(100_000);
        using StreamExistenceFilter filter = Open(log);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilAsync(catchUp);
        await catchUp;

        Assert.Equal(FilterState.Ready, filter.State);
        AssertAllFound(filter, 100_000);
        Assert.Equal(LogContractViolation.ReadPastEnd, Assert.Single(_observer.LogViolations).Violation);
        Assert.Contains("set NextPosition to 1000005, past EndPosition (1000000)", _observer.LogViolations[0].Detail, StringComparison.Ordinal);
        Assert.Single(_observer.LogRecoveries);
    }

    /// <summary>The report's repro as filed: kept as the position, the overshoot made 99,901 of 100,010 records "definitely not".</summary>
    [Fact]
    public async Task A_read_past_the_end_skips_nothing_when_the_log_then_grows_past_it()
    {
        var log = new OvershootLog(100_000);
        using StreamExistenceFilter filter = Open(log);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await _time.NextWaitAsync(); // parked after the overshooting read
        log.Grow(10);
        _time.Advance(TimeSpan.FromSeconds(1));
        await StepUntilAsync(catchUp);
        await catchUp;

        Assert.Equal(FilterState.Ready, filter.State);
        AssertAllFound(filter, 100_010);
        Assert.Equal(LogContractViolation.ReadPastEnd, Assert.Single(_observer.LogViolations).Violation);
    }

    [Fact]
    public async Task A_log_that_throws_on_its_first_reads_is_retried_and_catches_up_with_no_report()
    {
        var log = new InMemoryStreamLog { MaxPerRead = 100 };
        log.AppendRange(0, 1000);
        log.FailNextReads = 3;
        using StreamExistenceFilter filter = Open(log);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilAsync(catchUp, TimeSpan.FromMilliseconds(10));
        await catchUp; // a single failure used to end the catch-up, and the filter with it

        Assert.Equal(FilterState.Ready, filter.State);
        AssertAllFound(filter, 1000);
        Assert.Equal(3, _observer.LogFailures.Count);
        Assert.All(_observer.LogFailures, error => Assert.IsType<IOException>(error));
        Assert.Empty(_observer.LogUnavailabilities); // three quick failures are not an episode worth a report
    }

    [Fact]
    public async Task A_log_down_for_longer_than_the_patience_is_reported_once_and_recovers_by_itself()
    {
        var log = new InMemoryStreamLog();
        log.AppendRange(0, 100);
        using StreamExistenceFilter filter = Open(log);
        log.EndFails = true; // the database goes down after the open: its end cannot be read either
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilAsync(() => _observer.LogUnavailabilities.Count > 0, catchUp);
        for (int i = 0; i < 10; i++)
        {
            await StepAsync(TimeSpan.FromSeconds(1)); // and not again in the same episode
        }

        (Exception error, TimeSpan failingFor) = Assert.Single(_observer.LogUnavailabilities);
        Assert.IsType<IOException>(error);
        Assert.True(failingFor >= Patience, $"reported after {failingFor}");
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("never-written"));

        log.EndFails = false;
        await StepUntilAsync(catchUp);
        await catchUp;
        Assert.Equal(FilterState.Ready, filter.State);
        AssertAllFound(filter, 100);
        Assert.Single(_observer.LogRecoveries);
    }

    [Fact]
    public async Task Cancelling_a_catch_up_whose_log_is_down_ends_it_as_cancelled()
    {
        var log = new InMemoryStreamLog { FailNextReads = int.MaxValue };
        log.AppendRange(0, 10);
        using StreamExistenceFilter filter = Open(log);
        using var stop = new CancellationTokenSource();
        Task catchUp = filter.CatchUpAsync(stop.Token);

        await _time.NextWaitAsync(); // retrying
        await stop.CancelAsync();

        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => catchUp.WaitAsync(TimeSpan.FromMinutes(2)));
        Assert.Equal(FilterState.Initializing, filter.State);
    }

    internal static void AssertAllFound(StreamExistenceFilter filter, long records)
    {
        long missing = 0;
        for (long i = 0; i < records; i++)
        {
            missing += filter.MightExist(OvershootLog.Name(i)) ? 0 : 1;
        }

        Assert.Equal(0, missing);
    }

    private StreamExistenceFilter Open(IStreamNameLog log)
    {
        var filter = new StreamExistenceFilter(
            new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 1024 * 1024, TimeProvider = _time, LogPatience = Patience }, log, _observer);
        filter.Open();
        return filter;
    }

    // Moves the clock a step at a time, each time once the reader is parked on it, until the condition holds or the
    // catch-up ends (then nothing waits on the clock any more).
    private async Task StepUntilAsync(Func<bool> done, Task catchUp, TimeSpan? step = null)
    {
        for (int i = 0; i < 300 && !done() && !catchUp.IsCompleted; i++)
        {
            Task waited = _time.NextWaitAsync();
            if (await Task.WhenAny(waited, catchUp) == waited)
            {
                _time.Advance(step ?? TimeSpan.FromSeconds(1));
            }
        }

        Assert.True(done(), "the condition did not come while stepping the clock");
    }

    private Task StepUntilAsync(Task catchUp, TimeSpan? step = null) => StepUntilAsync(() => catchUp.IsCompleted, catchUp, step);

    private async Task StepAsync(TimeSpan by)
    {
        await _time.NextWaitAsync();
        _time.Advance(by);
    }
}
