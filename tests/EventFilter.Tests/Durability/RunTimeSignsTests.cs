namespace EventFilter.Tests.Durability;

/// <summary>
/// What a ready filter sees of a wrong end at run time (docs/design.md, "Run-time signs"): each is reported once per
/// quiet period, from the samples of the end that checkpoints and the follower take anyway. Each test fails without
/// its check: before it, all of these went unreported in a running host.
/// </summary>
public sealed class RunTimeSignsTests : IDisposable
{
    private static readonly TimeSpan Bound = TimeSpan.FromMinutes(1);
    private readonly TempDirectory _dir = new();
    private readonly SteppedTime _time = new();
    private readonly RecordingObserver _observer = new();
    private readonly InMemoryStreamLog _log = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task An_end_that_stays_behind_the_adds_past_the_bound_is_reported_once()
    {
        _log.AppendRange(0, 10);
        using StreamExistenceFilter filter = Open(_log, follow: false);
        await filter.CatchUpAsync(CancellationToken.None);

        // A database log whose end is held back: appends go on, the end does not move.
        for (int i = 10; i < 20; i++)
        {
            filter.Add(InMemoryStreamLog.Name(i), _log.AppendPending(InMemoryStreamLog.Name(i)));
        }

        filter.Checkpoint(_log.EndPosition);
        _time.Advance(Bound / 2);
        filter.Checkpoint(_log.EndPosition);
        Assert.Empty(_observer.LogViolations); // within the bound: a transaction may be in flight

        _time.Advance(Bound / 2);
        filter.Checkpoint(_log.EndPosition);
        _time.Advance(Bound);
        filter.Checkpoint(_log.EndPosition);

        (LogContractViolation violation, string detail) = Assert.Single(_observer.LogViolations);
        Assert.Equal(LogContractViolation.EndBehindAdds, violation);
        Assert.Contains("the host's adds reached 20 but EndPosition has stayed below it (now 10) for 60 s", detail, StringComparison.Ordinal);
    }

    [Fact]
    public async Task An_end_that_lags_the_adds_but_keeps_up_is_not_reported()
    {
        _log.AppendRange(0, 10);
        using StreamExistenceFilter filter = Open(_log, follow: false);
        await filter.CatchUpAsync(CancellationToken.None);

        // A host that adds before its fsync: the end is always a little behind, and always reaches what was added.
        for (int i = 10; i < 200; i++)
        {
            filter.Add(InMemoryStreamLog.Name(i), _log.AppendPending(InMemoryStreamLog.Name(i)));
            filter.Checkpoint(_log.EndPosition);
            _log.MakeDurable();
            _time.Advance(TimeSpan.FromSeconds(1));
        }

        Assert.Empty(_observer.LogViolations);
    }

    [Fact]
    public async Task An_end_that_steps_back_now_and_then_is_reported_once_by_a_follower()
    {
        _log.AppendRange(0, 10);
        var log = new SteppingBackLog(_log, every: 5);
        using var stop = new CancellationTokenSource();
        using StreamExistenceFilter filter = Open(log, follow: true);
        Task following = filter.CatchUpAsync(stop.Token);
        await filter.WhenReady;

        for (int poll = 0; poll < 40; poll++)
        {
            await _time.NextWaitAsync(); // the follower is parked on its poll
            _time.Advance(TimeSpan.FromMilliseconds(100));
        }

        Assert.True(log.StepsBack >= 5, $"{log.StepsBack} steps back");
        Assert.Equal(LogContractViolation.EndMovedBack, Assert.Single(_observer.LogViolations).Violation);
        await stop.CancelAsync();
        await Assert.ThrowsAnyAsync<OperationCanceledException>(() => following);
    }

    private StreamExistenceFilter Open(IStreamNameLog log, bool follow)
    {
        var filter = new StreamExistenceFilter(
            new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 64 * 1024, TimeProvider = _time, LogEndBound = Bound, FollowLog = follow },
            log,
            _observer);
        filter.Open();
        return filter;
    }

    /// <summary>A log whose end says one less on every <c>every</c>-th read: the flapping end of the report.</summary>
    private sealed class SteppingBackLog(InMemoryStreamLog log, int every) : IStreamNameLog
    {
        private int _reads;

        public int StepsBack { get; private set; }

        public long EndPosition
        {
            get
            {
                if (++_reads % every != 0)
                {
                    return log.EndPosition;
                }

                StepsBack++;
                return log.EndPosition - 1;
            }
        }

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) => log.ReadAsync(fromPosition, batch, cancellationToken);
    }
}
