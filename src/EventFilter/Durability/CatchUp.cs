using EventFilter.Blocked;

namespace EventFilter.Durability;

/// <summary>
/// Step 3 of the open sequence: read the log from the checkpoint to its end and add every name with the batch path.
/// Checkpoints every <see cref="StreamExistenceFilterOptions.CatchUpCheckpointRecords"/> records, so an interrupted
/// catch-up (a rebuild, say) resumes where it stopped. The end is sampled again on reaching it, because the log grows.
/// It never finishes below the durable end it was given: a log that breaks its rules is retried and reported
/// (<see cref="LogWatch"/>), never taken at its word (docs/design.md, "The log's rules").
/// </summary>
internal sealed class CatchUp
{
    private readonly IStreamNameLog _log;
    private readonly FilterObserver _observer;
    private readonly StreamExistenceFilterOptions _options;
    private long _position;
    private long _truncatedTo = long.MaxValue;
    private long _coverTo;

    public CatchUp(IStreamNameLog log, FilterObserver observer, StreamExistenceFilterOptions options)
    {
        _log = log;
        _observer = observer;
        _options = options;
    }

    /// <summary>Everything before this position has been added by the running catch-up.</summary>
    public long Position => Volatile.Read(ref _position);

    private bool Covered => Position >= Volatile.Read(ref _coverTo);

    /// <summary>The host truncated its log: the loop must not go on from beyond <paramref name="position"/>.</summary>
    public void NoteTruncation(long position)
    {
        // What was appended beyond the cut will never be durable: a catch-up waiting to cover it would wait for ever.
        LowerTo(ref _coverTo, position);
        LowerTo(ref _truncatedTo, position);
    }

    /// <summary>
    /// Adds every record from the target's checkpoint to the log's durable end. With <paramref name="coverTo"/>, it
    /// does not finish before it has read up to there either, waiting for the host to make those records durable.
    /// </summary>
    /// <remarks>
    /// <c>caughtUp</c> is called once, with the final progress (reported just before), when everything durable (and up
    /// to <c>coverTo</c>) has been added, before the final checkpoint: from then on the target holds every name in
    /// the log, and its checkpoint is only for the next start.
    /// </remarks>
    public async Task<CatchUpProgress> RunAsync(CheckpointedFilter target, CancellationToken cancellationToken, long coverTo = 0, Action<CatchUpProgress>? caughtUp = null)
    {
        bool pipeline = _options.CatchUpAdds == CatchUpAdds.Pipeline;
        var reads = new ReadAhead(
            _log,
            () => pipeline ? new StreamNameBatch() : RegionAdder.BatchFor(target.File.LineCount),
            enabled: !pipeline && _options.CatchUpThreads > 1 && _options.CatchUpReadAhead);
        try
        {
            return await RunAsync(target, reads, cancellationToken, coverTo, caughtUp).ConfigureAwait(false);
        }
        finally
        {
            await reads.StopAsync().ConfigureAwait(false); // no read of the log may outlive the catch-up
        }
    }

    private async Task<CatchUpProgress> RunAsync(CheckpointedFilter target, ReadAhead reads, CancellationToken cancellationToken, long coverTo, Action<CatchUpProgress>? caughtUp)
    {
        CatchUpProgress? done = null;
        Volatile.Write(ref _coverTo, coverTo);
        long start = target.DurablePosition;
        Volatile.Write(ref _position, start);
        bool pipeline = _options.CatchUpAdds == CatchUpAdds.Pipeline;
        using var adder = new RegionAdder(_options.CatchUpThreads, partition: _options.CatchUpAdds == CatchUpAdds.Regions);
        var reporter = new CatchUpReporter(target.File.Path, start, Report);
        var watch = new LogWatch(target.File.Path, _observer, _options.TimeProvider, _options.LogPatience);
        var end = new LogEnd(_log);
        long records = 0, sinceCheckpoint = 0, waits = 0;

        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            long epoch = target.Epoch;
            ApplyTruncation(end, reads);
            if (Position >= end.Value)
            {
                end.Sample();
                if (Suspect(end) is { } fault)
                {
                    await watch.SuspectAsync(fault.Violation, fault.Detail, cancellationToken).ConfigureAwait(false);
                    continue;
                }

                if (Position >= end.Value && !Covered)
                {
                    // Records an add already sent elsewhere are appended but not yet durable: keep what was read, and wait.
                    if (waits == 0)
                    {
                        target.Checkpoint(Position, epoch);
                    }

                    await WaitForLogAsync(++waits, cancellationToken).ConfigureAwait(false);
                    continue;
                }

                if (Position >= end.Value)
                {
                    done ??= CaughtUp(reporter, records, caughtUp);
                    if (target.Checkpoint(Position, epoch))
                    {
                        break;
                    }
                }

                continue;
            }

            long from = Position;
            StreamNameBatch batch = await reads.ReadAsync(from, cancellationToken).ConfigureAwait(false);
            if (batch.NextPosition <= from)
            {
                // Nothing read, or positions that do not increase: either way the log owes records below its end.
                // Names it did hand over go in (extra bits are safe); the position stays until a read moves it on.
                if (batch.Count > 0)
                {
                    target.File.AddBatch(batch.Names, batch.Lengths);
                }

                end.Sample();
                (LogContractViolation violation, string detail) = batch.Count > 0
                    ? (LogContractViolation.PositionNotAdvancing, $"ReadAsync({from}) returned {batch.Count} records but set NextPosition to {batch.NextPosition}: NextPosition must be just past the last record read, and record positions must increase.")
                    : (LogContractViolation.ShortRead, $"ReadAsync({from}) returned no record while EndPosition is {end.Value}: a read must return the durable records from the position it is given (or set NextPosition past a range that holds none), and EndPosition must not be ahead of the records.");
                if (from < end.Value || batch.Count > 0)
                {
                    await watch.SuspectAsync(violation, detail, cancellationToken).ConfigureAwait(false);
                }

                continue;
            }

            if (records == 0)
            {
                // Before the first batch's adds, so that they too find their pages' private copies made.
                target.File.ExpectAdds(EstimateNames(batch.Count, from, batch.NextPosition, end.Value), pipeline ? 1 : _options.CatchUpThreads);
            }

            if (batch.NextPosition < end.Value)
            {
                reads.Start(batch.NextPosition, cancellationToken); // the next batch is read while this one is added
            }

            Add(target.File, batch, adder);
            Volatile.Write(ref _position, batch.NextPosition);

            watch.Clear();
            waits = 0;
            records += batch.Count;
            sinceCheckpoint += batch.Count;
            if (sinceCheckpoint >= _options.CatchUpCheckpointRecords && Position <= end.Value && target.Checkpoint(Position, epoch))
            {
                sinceCheckpoint = 0;
            }

            reporter.Advanced(Position, end.Value, records);
        }

        return done!;
    }

    private void Add(FilterFile file, StreamNameBatch batch, RegionAdder adder)
    {
        if (_options.CatchUpAdds == CatchUpAdds.Pipeline)
        {
            file.AddBatch(batch.Names, batch.Lengths);
        }
        else
        {
            file.AddBatch(batch, adder);
        }
    }

    // Positions need not count records (a host's may be byte offsets): scale the rest by the first batch's density.
    private static long EstimateNames(int count, long from, long to, long end) =>
        count + (long)((double)Math.Max(0, end - to) * count / Math.Max(1, to - from));

    private static void LowerTo(ref long field, long position)
    {
        long seen;
        do
        {
            seen = Volatile.Read(ref field);
        }
        while (position < seen && Interlocked.CompareExchange(ref field, position, seen) != seen);
    }

    // What a fresh sample of the end says against what was read: an end that went back with no truncation, or reads
    // that went past it. Either way the catch-up must not finish (or checkpoint) at this end.
    private (LogContractViolation Violation, string Detail)? Suspect(LogEnd end)
    {
        if (end.Value < end.Highest)
        {
            return (LogContractViolation.EndMovedBack, $"EndPosition went back from {end.Highest} to {end.Value} with no TruncateTo: the durable end only grows, and when the log is cut the host must call TruncateTo.");
        }

        if (Position > end.Value)
        {
            return (LogContractViolation.ReadPastEnd, $"ReadAsync set NextPosition to {Position}, past EndPosition ({end.Value}): reads must stop at the durable end, and EndPosition must cover every record a read returns.");
        }

        return null;
    }

    // The end is reached: the last progress report (100%), then the caller hears it is caught up.
    private CatchUpProgress CaughtUp(CatchUpReporter reporter, long records, Action<CatchUpProgress>? caughtUp)
    {
        CatchUpProgress done = reporter.End(Position, records);
        Report(done);
        caughtUp?.Invoke(done);
        return done;
    }

    // The log has no signal for "durable end moved", so poll: the host's next fsync is a few milliseconds away, and
    // the back-off keeps a host whose writer has stopped (it needs a restart) from costing more than an idle poll.
    private static Task WaitForLogAsync(long waits, CancellationToken cancellationToken) =>
        Task.Delay(TimeSpan.FromMilliseconds(Math.Min(waits, 50)), cancellationToken);

    // One report goes to both listeners: the observer (logs and metrics, via hosting) and the caller's IProgress.
    private void Report(CatchUpProgress progress)
    {
        _observer.CatchUpProgress(progress);
        _options.CatchUpProgress?.Report(progress);
    }

    private void ApplyTruncation(LogEnd end, ReadAhead reads)
    {
        long truncatedTo = Interlocked.Exchange(ref _truncatedTo, long.MaxValue);
        if (truncatedTo == long.MaxValue)
        {
            return;
        }

        reads.Drop(); // a batch read before the cut may hold records past it

        end.Truncated(truncatedTo);
        if (truncatedTo < Position)
        {
            Volatile.Write(ref _position, truncatedTo);
        }
    }

    /// <summary>The log's end as this catch-up sampled it, and the highest it has said since the last truncation.</summary>
    private sealed class LogEnd(IStreamNameLog log)
    {
        public long Value { get; private set; } = log.EndPosition;

        public long Highest { get; private set; } = log.EndPosition;

        public void Sample()
        {
            Value = log.EndPosition;
            Highest = Math.Max(Highest, Value);
        }

        /// <summary>The host cut its log: the end may go back to there.</summary>
        public void Truncated(long position)
        {
            Highest = Math.Min(Highest, position);
            Value = Math.Min(Value, position);
        }
    }
}
