namespace EventFilter.Durability;

/// <summary>
/// Step 3 of the open sequence: read the log from the checkpoint to its end and add every name with the batch path.
/// Checkpoints every <see cref="StreamExistenceFilterOptions.CatchUpCheckpointRecords"/> records, so an interrupted
/// catch-up (a rebuild, say) resumes where it stopped. The end is sampled again on reaching it, because the log grows.
/// </summary>
internal sealed class CatchUp
{
    private readonly IStreamNameLog _log;
    private readonly FilterObserver _observer;
    private readonly long _checkpointRecords;
    private readonly IProgress<CatchUpProgress>? _progress;
    private long _position;
    private long _truncatedTo = long.MaxValue;
    private long _coverTo;

    public CatchUp(IStreamNameLog log, FilterObserver observer, long checkpointRecords, IProgress<CatchUpProgress>? progress)
    {
        _progress = progress;
        _log = log;
        _observer = observer;
        _checkpointRecords = checkpointRecords;
    }

    /// <summary>Everything before this position has been added by the running catch-up.</summary>
    public long Position => Volatile.Read(ref _position);

    private bool Covered => Position >= Volatile.Read(ref _coverTo);

    /// <summary>The host truncated its log: the loop must not go on from beyond <paramref name="position"/>.</summary>
    public void NoteTruncation(long position)
    {
        // What was appended beyond the cut will never be durable: a catch-up waiting to cover it would wait for ever.
        long cover;
        do
        {
            cover = Volatile.Read(ref _coverTo);
        }
        while (position < cover && Interlocked.CompareExchange(ref _coverTo, position, cover) != cover);

        long seen;
        do
        {
            seen = Volatile.Read(ref _truncatedTo);
        }
        while (position < seen && Interlocked.CompareExchange(ref _truncatedTo, position, seen) != seen);
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
        CatchUpProgress? done = null;
        Volatile.Write(ref _coverTo, coverTo);
        long start = target.DurablePosition;
        Volatile.Write(ref _position, start);
        var batch = new StreamNameBatch();
        var reporter = new CatchUpReporter(target.File.Path, start, Report);
        long records = 0, sinceCheckpoint = 0, waits = 0, end = _log.EndPosition;

        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            long epoch = target.Epoch;
            ApplyTruncation();
            if (Position >= end)
            {
                end = _log.EndPosition;
                if (Position >= end && !Covered)
                {
                    // Records an add already sent elsewhere are appended but not yet durable: keep what was read, and wait.
                    if (waits == 0)
                    {
                        target.Checkpoint(Position, epoch);
                    }

                    await WaitForLogAsync(++waits, cancellationToken).ConfigureAwait(false);
                    continue;
                }

                if (Position >= end)
                {
                    done ??= CaughtUp(reporter, records, caughtUp);
                    if (target.Checkpoint(Position, epoch))
                    {
                        break;
                    }
                }

                continue;
            }

            batch.Clear();
            await _log.ReadAsync(Position, batch, cancellationToken).ConfigureAwait(false);
            if (batch.Count == 0 && batch.NextPosition <= Position)
            {
                // The log has nothing more to give, whatever its end said: stop here, once what must be covered is.
                if (!Covered)
                {
                    await WaitForLogAsync(++waits, cancellationToken).ConfigureAwait(false);
                    continue;
                }

                done ??= CaughtUp(reporter, records, caughtUp);
                if (target.Checkpoint(Position, epoch))
                {
                    break;
                }

                continue;
            }

            long from = Position;
            target.File.AddBatch(batch.Names, batch.Lengths);
            Volatile.Write(ref _position, batch.NextPosition);
            if (records == 0)
            {
                target.File.ExpectAdds(EstimateNames(batch.Count, from, batch.NextPosition, end));
            }

            waits = 0;
            records += batch.Count;
            sinceCheckpoint += batch.Count;
            if (sinceCheckpoint >= _checkpointRecords && target.Checkpoint(Position, epoch))
            {
                sinceCheckpoint = 0;
            }

            reporter.Advanced(Position, end, records);
        }

        return done!;
    }

    // Positions need not count records (a host's may be byte offsets): scale the rest by the first batch's density.
    private static long EstimateNames(int count, long from, long to, long end) =>
        count + (long)((double)Math.Max(0, end - to) * count / Math.Max(1, to - from));

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
        _progress?.Report(progress);
    }

    private void ApplyTruncation()
    {
        long truncatedTo = Interlocked.Exchange(ref _truncatedTo, long.MaxValue);
        if (truncatedTo < Position)
        {
            Volatile.Write(ref _position, truncatedTo);
        }
    }
}
