using EventFilter.Blocked;

namespace EventFilter.Durability;

/// <summary>
/// Step 3 of the open sequence: read the log from the checkpoint to its end and add every name with the batch path.
/// Checkpoints at least <see cref="StreamExistenceFilterOptions.CatchUpCheckpointRecords"/> records apart, and no
/// more often than keeps their cost a small part of the catch-up's time (<see cref="CatchUpCheckpoints"/>), so an
/// interrupted catch-up (a rebuild, say) resumes near where it stopped. The end is sampled again on reaching it, because the log grows.
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
        var reporter = new CatchUpReporter(target.File.Path, start, Report, _options.TimeProvider);
        var watch = new LogWatch(target.File.Path, _observer, _options.TimeProvider, _options.LogPatience, Meanwhile);
        var end = new LogEnd(_log);
        var checkpoints = new CatchUpCheckpoints(_options.CatchUpCheckpointRecords, _options.TimeProvider, timed: target.File.LengthBytes >= _options.CatchUpTimedCheckpointBytes);
        long records = 0, waits = 0, expected = 0;

        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            long epoch = target.Epoch;
            try
            {
                ApplyTruncation(end, reads);
                if (!end.Known || Position >= end.Value)
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
                        watch.Clear();
                        done ??= CaughtUp(reporter, records, caughtUp);
                        if (target.Checkpoint(Position, epoch))
                        {
                            break;
                        }
                    }

                    continue;
                }

                long from = Position;
                StreamNameBatch batch = await ReadAsync(reads, from, cancellationToken).ConfigureAwait(false);
                switch (ReadCheck.Judge(from, batch, end, out LogContractViolation violation, out string detail))
                {
                    case ReadCheck.Outcome.Nothing:
                        continue;
                    case ReadCheck.Outcome.Fault:
                        // Names the log did hand over go in (extra bits are safe); the position stays until a read moves it on.
                        target.File.AddBatch(batch.Names, batch.Lengths);
                        await watch.SuspectAsync(violation, detail, cancellationToken).ConfigureAwait(false);
                        continue;
                }

                if (records == 0)
                {
                    // Before the first batch's adds, so that they too find their pages' private copies made.
                    expected = EstimateNames(batch.Count, from, batch.NextPosition, end.Value);
                    target.File.ExpectAdds(expected, pipeline ? 1 : _options.CatchUpThreads);
                }

                if (batch.NextPosition < end.Value)
                {
                    reads.Start(batch.NextPosition, cancellationToken); // the next batch is read while this one is added
                }

                Add(target.File, batch, adder);
                Volatile.Write(ref _position, batch.NextPosition);
                _observer.RecordsRead(target.File.Path, batch.Count);

                watch.Clear();
                waits = 0;
                records += batch.Count;
                if (checkpoints.Added(batch.Count, expected, target.File.LengthBytes))
                {
                    _ = checkpoints.Take(() => target.Checkpoint(Position, epoch), target.File.PendingFlushBytes());
                }

                reporter.Advanced(Position, end.Value, records);
            }
            catch (LogCallFailedException failed)
            {
                // A dropped connection, a failover, a restarting server: routine for a database log, never the end of
                // the filter. Nothing read is taken as progress; the same position is read again after a back-off.
                reads.Drop();
                await watch.FailedAsync(failed.InnerException!, cancellationToken).ConfigureAwait(false);
            }
        }

        return done!;
    }

    /// <summary>What a fault report adds about the filter meanwhile.</summary>
    private const string Meanwhile = "The filter stays not ready (every lookup answers \"maybe\"; a resize or rebuild keeps the old file serving) and retries until the log behaves.";

    /// <summary>Reads the batch from <paramref name="from"/>; what the log throws (other than this catch-up's cancellation) becomes a <see cref="LogCallFailedException"/>.</summary>
    private static async ValueTask<StreamNameBatch> ReadAsync(ReadAhead reads, long from, CancellationToken cancellationToken)
    {
        try
        {
            return await reads.ReadAsync(from, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (error is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            throw new LogCallFailedException(error);
        }
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

    // What a fresh sample of the end says against what was read: an end that went back with no truncation. The catch-up
    // must not finish (or checkpoint) at such an end. Reads never take the position past the end (ReadCheck).
    private static (LogContractViolation Violation, string Detail)? Suspect(LogEnd end) =>
        end.MovedBack ? (LogContractViolation.EndMovedBack, end.MovedBackDetail) : null;

    // The end is reached: the last progress report (100%), then the caller hears it is caught up.
    private CatchUpProgress CaughtUp(CatchUpReporter reporter, long records, Action<CatchUpProgress>? caughtUp)
    {
        CatchUpProgress done = reporter.End(Position, records);
        Report(done);
        caughtUp?.Invoke(done);
        return done;
    }

    // Waiting for records an add sent elsewhere to become durable: poll (the log's append signal is the follower's; a
    // catch-up waits here only for a resize's or rebuild's last records): the host's next fsync is a few milliseconds
    // away, and the back-off keeps a host whose writer has stopped (it needs a restart) from costing more than an idle poll.
    private Task WaitForLogAsync(long waits, CancellationToken cancellationToken) =>
        Task.Delay(TimeSpan.FromMilliseconds(Math.Min(waits, 50)), _options.TimeProvider, cancellationToken);

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
}
