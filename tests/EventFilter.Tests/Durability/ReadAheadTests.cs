namespace EventFilter.Tests.Durability;

/// <summary>
/// A catch-up on more than one thread reads the next batch while it adds the current one (docs/design.md, "Hot
/// path"). A batch read ahead that a truncation overtakes holds records past the cut: it must be read again, never
/// taken, or the catch-up would stand past the log's end and report a read past the end the log never made.
/// </summary>
public sealed class ReadAheadTests : IDisposable
{
    private readonly TempDirectory _dir = new();
    private readonly SteppedTime _time = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task A_batch_read_ahead_before_a_truncation_is_read_again()
    {
        using var readAhead = new ManualResetEventSlim();
        var log = new ScriptedLog(("a", 10), ("b", 20), ("c", 30));
        StreamExistenceFilter? filter = null;
        log.Override = (n, from, batch) =>
        {
            switch (n)
            {
                case 0: // the first read stops after "a", so that the rest is read ahead
                    batch.TryAdd("a"u8);
                    batch.NextPosition = 10;
                    return true;
                case 1: // the read ahead: "b" and "c", then the host cuts "c" off and tells the filter
                    Assert.Equal(10, from);
                    batch.TryAdd("b"u8);
                    batch.TryAdd("c"u8);
                    batch.NextPosition = 30;
                    log.SetEnd(20);
                    filter!.TruncateTo(20);
                    readAhead.Set();
                    return true;
                default:
                    return false;
            }
        };

        // The checkpoint after the first batch holds the catch-up until the read ahead and the cut are done: the
        // order in which a taken read-ahead batch would stand past the end.
        var observer = new HoldingObserver(readAhead);
        var options = new StreamExistenceFilterOptions
        {
            DataDirectory = _dir.Path, SizeBytes = 64 * 1024, TimeProvider = _time, CatchUpCheckpointRecords = 1, CatchUpThreads = 2,
        };
        using (filter = new StreamExistenceFilter(options, log, observer))
        {
            filter.Open();
            await filter.CatchUpAsync(CancellationToken.None).WaitAsync(TimeSpan.FromMinutes(2));

            Assert.True(observer.Held, "the read ahead ran before the first checkpoint");
            Assert.Equal(FilterState.Ready, filter.State);
            Assert.Empty(observer.LogViolations);
            Assert.Equal(20, filter.CheckpointPosition);
            Assert.True(filter.MightExist("a") && filter.MightExist("b"));
        }
    }

    private sealed class HoldingObserver(ManualResetEventSlim readAhead) : FilterObserver
    {
        public bool Held { get; private set; }

        public List<LogContractViolation> LogViolations { get; } = [];

        public override void CheckpointWritten(string path, long position, FlushResult flush)
        {
            if (position == 10 && !Held)
            {
                Held = readAhead.Wait(TimeSpan.FromMinutes(1));
            }
        }

        public override void LogContractViolated(string path, LogContractViolation violation, string detail) => LogViolations.Add(violation);
    }
}
