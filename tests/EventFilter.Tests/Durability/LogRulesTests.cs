namespace EventFilter.Tests.Durability;

/// <summary>
/// A catch-up never finishes below the durable end the log gave it, and never on a log that breaks its rules
/// (docs/design.md, "The log's rules"): it retries with a back-off on the injected clock, reports the violation once it
/// has lasted the patience, and stays not ready, answering "maybe", until the log behaves. Each test fails without its check.
/// </summary>
public sealed class LogRulesTests : IDisposable
{
    private static readonly TimeSpan Patience = TimeSpan.FromSeconds(5);
    private readonly TempDirectory _dir = new();
    private readonly SteppedTime _time = new();
    private readonly RecordingObserver _observer = new();

    public void Dispose() => _dir.Dispose();

    /// <summary>The repro: one empty read while the end says both records are durable.</summary>
    [Fact]
    public async Task A_transient_empty_read_below_the_end_is_retried_and_no_name_is_lost()
    {
        var log = new ScriptedLog(("a", 10), ("b", 20)) { Override = (n, from, batch) => n == 0 && Empty(from, batch) };
        using StreamExistenceFilter filter = Open(log);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await _time.NextWaitAsync(); // parked after the empty read: the gate is the clock
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("a") && filter.MightExist("b"));

        _time.Advance(TimeSpan.FromMilliseconds(1));
        await catchUp.WaitAsync(TimeSpan.FromMinutes(2));
        Assert.Equal(FilterState.Ready, filter.State);
        Assert.True(filter.MightExist("a") && filter.MightExist("b"));
        Assert.Empty(_observer.LogViolations);
    }

    [Fact]
    public async Task Empty_reads_below_the_end_keep_the_filter_not_ready_and_are_reported_once()
    {
        var log = new ScriptedLog(("a", 10), ("b", 20)) { Override = (_, from, batch) => Empty(from, batch) };
        using StreamExistenceFilter filter = Open(log);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilReportedAsync();
        await StepAsync(TimeSpan.FromSeconds(10)); // and never again for the same episode

        (LogContractViolation violation, string detail) = Assert.Single(_observer.LogViolations);
        Assert.Equal(LogContractViolation.ShortRead, violation);
        Assert.Contains("ReadAsync(0) returned no record while EndPosition is 20", detail, StringComparison.Ordinal);
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("a") && filter.MightExist("b") && filter.MightExist("never-written"));

        // The log recovers: the catch-up goes on by itself.
        log.Override = null;
        await StepAsync(TimeSpan.FromSeconds(1));
        await catchUp.WaitAsync(TimeSpan.FromMinutes(2));
        Assert.True(filter.MightExist("a") && filter.MightExist("b"));
    }

    [Fact]
    public async Task An_end_that_moves_back_without_a_truncation_holds_readiness_and_is_reported()
    {
        var log = new ScriptedLog(("a", 10), ("b", 20));
        log.Override = (n, _, _) =>
        {
            log.SetEnd(10); // after the first read the end says less than it did
            return false;
        };
        using StreamExistenceFilter filter = Open(log);
        _ = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilReportedAsync();

        Assert.Equal(LogContractViolation.EndMovedBack, Assert.Single(_observer.LogViolations).Violation);
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.MightExist("never-written"));
    }

    [Fact]
    public async Task An_end_that_moves_back_with_a_truncation_is_a_cut_not_a_violation()
    {
        var log = new ScriptedLog(("a", 10), ("b", 20));
        using StreamExistenceFilter filter = Open(log);
        log.Override = (_, _, _) =>
        {
            log.SetEnd(10); // the host cut its log after the catch-up sampled the end, and tells the filter
            filter.TruncateTo(10);
            log.Override = null;
            return false;
        };
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await catchUp.WaitAsync(TimeSpan.FromMinutes(2));

        Assert.Equal(FilterState.Ready, filter.State);
        Assert.Empty(_observer.LogViolations);
        Assert.Equal(10, filter.CheckpointPosition);
    }

    [Fact]
    public async Task A_read_past_the_end_holds_readiness_until_the_end_covers_it()
    {
        var log = new ScriptedLog(("a", 10), ("b", 20)) { ReadLimit = 20 };
        log.SetEnd(10); // the read hands over "b", which the end does not cover: not durable, or a stale end
        using StreamExistenceFilter filter = Open(log);
        Task catchUp = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilReportedAsync();
        Assert.Equal(LogContractViolation.ReadPastEnd, Assert.Single(_observer.LogViolations).Violation);
        Assert.Equal(FilterState.Initializing, filter.State);
        Assert.True(filter.CheckpointPosition is null or <= 10, "no checkpoint may claim past the durable end");

        log.SetEnd(20);
        await StepAsync(TimeSpan.FromSeconds(1));
        await catchUp.WaitAsync(TimeSpan.FromMinutes(2));
        Assert.Equal(FilterState.Ready, filter.State);
    }

    [Fact]
    public async Task A_read_that_returns_records_without_moving_on_is_reported()
    {
        var log = new ScriptedLog(("a", 10), ("b", 20))
        {
            Override = (_, from, batch) =>
            {
                batch.TryAdd("a"u8);
                batch.NextPosition = from; // positions that do not increase
                return true;
            },
        };
        using StreamExistenceFilter filter = Open(log);
        _ = filter.CatchUpAsync(CancellationToken.None);

        await StepUntilReportedAsync();

        Assert.Equal(LogContractViolation.PositionNotAdvancing, Assert.Single(_observer.LogViolations).Violation);
        Assert.Equal(FilterState.Initializing, filter.State);
    }

    private static bool Empty(long from, StreamNameBatch batch)
    {
        batch.NextPosition = from;
        return true;
    }

    private StreamExistenceFilter Open(IStreamNameLog log)
    {
        var filter = new StreamExistenceFilter(
            new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 64 * 1024, TimeProvider = _time, LogPatience = Patience }, log, _observer);
        filter.Open();
        return filter;
    }

    // Moves the clock a second at a time, each time once the catch-up is parked on it, until a violation is reported.
    private async Task StepUntilReportedAsync()
    {
        for (int step = 0; step < 30 && _observer.LogViolations.Count == 0; step++)
        {
            await StepAsync(TimeSpan.FromSeconds(1));
        }

        Assert.NotEmpty(_observer.LogViolations);
    }

    private async Task StepAsync(TimeSpan total)
    {
        for (TimeSpan moved = TimeSpan.Zero; moved < total; moved += TimeSpan.FromSeconds(1))
        {
            await _time.NextWaitAsync();
            _time.Advance(TimeSpan.FromSeconds(1));
        }
    }
}
