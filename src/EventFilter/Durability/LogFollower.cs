namespace EventFilter.Durability;

/// <summary>
/// Follow mode (docs/design.md, "Following the log"): once caught up, reads the log behind its end for as long as the
/// filter runs, so that names appended by other processes over the same log are learned too. Wakes on the log's
/// signal (<see cref="IStreamNameLogSignal"/>) or a poll. Faults are those of a catch-up (<see cref="ReadCheck"/>,
/// <see cref="LogWatch"/>): retried, reported, never taken as progress. Its position is published to the host contract
/// under the filter's checkpoint gate, so no checkpoint claims more than it has read.
/// </summary>
internal sealed class LogFollower
{
    private const string Meanwhile = "The filter keeps answering from what it has read (its read position stops), checkpoints claim no more than that, and it retries until the log behaves.";

    private readonly IStreamNameLog _log;
    private readonly FilterObserver _observer;
    private readonly StreamExistenceFilterOptions _options;
    private readonly Lock _gate;
    private readonly HostContract _contract;
    private readonly Action<StreamNameBatch> _add;
    private readonly Action<long> _endSampled;
    private long _position;
    private long _truncatedTo = long.MaxValue;
    private long _behindSince; // when the follower first saw the end above its position; 0 while at the end

    /// <summary>
    /// A follower of <c>log</c> for the filter at <c>options</c>' path. <c>gate</c> is the filter's checkpoint gate,
    /// under which <c>contract</c>'s positions change; <c>add</c> adds a batch to the serving file, and to a file being
    /// built beside it; <c>endSampled</c> hears each end it samples while idle, for the run-time checks.
    /// </summary>
    public LogFollower(IStreamNameLog log, FilterObserver observer, StreamExistenceFilterOptions options, Lock gate, HostContract contract, Action<StreamNameBatch> add, Action<long> endSampled)
    {
        (_log, _observer, _options, _gate, _contract, _add, _endSampled) = (log, observer, options, gate, contract, add, endSampled);
    }

    /// <summary>Every record before it has been read into the filter by the follower.</summary>
    public long Position => Volatile.Read(ref _position);

    /// <summary>How long the follower has been behind the end it last sampled; zero while it is at the end.</summary>
    public TimeSpan Lag => Volatile.Read(ref _behindSince) is var since and not 0 ? _options.TimeProvider.GetElapsedTime(since) : TimeSpan.Zero;

    /// <summary>The host cut its log (under the gate): a read that began before it is not published, and reading resumes from the cut.</summary>
    public void NoteTruncation(long position)
    {
        long seen;
        do
        {
            seen = Volatile.Read(ref _truncatedTo);
        }
        while (position < seen && Interlocked.CompareExchange(ref _truncatedTo, position, seen) != seen);
    }

    /// <summary>Follows the log from <paramref name="from"/>, where the catch-up ended, until cancelled.</summary>
    public async Task RunAsync(long from, CancellationToken cancellationToken)
    {
        string path = _options.FilterPath;
        Volatile.Write(ref _position, from);
        var batch = new StreamNameBatch();
        var watch = new LogWatch(path, _observer, _options.TimeProvider, _options.LogPatience, Meanwhile);
        var end = new LogEnd(_log);
        while (true)
        {
            cancellationToken.ThrowIfCancellationRequested();
            try
            {
                ApplyTruncation(end);
                if (!end.Known || Position >= end.Value)
                {
                    end.Sample();
                    _endSampled(end.Value);
                    if (end.MovedBack)
                    {
                        await watch.SuspectAsync(LogContractViolation.EndMovedBack, end.MovedBackDetail, cancellationToken).ConfigureAwait(false);
                        continue;
                    }

                    if (Position >= end.Value)
                    {
                        watch.Clear();
                        Volatile.Write(ref _behindSince, 0);
                        await WaitForAppendAsync(end.Value, cancellationToken).ConfigureAwait(false);
                        continue;
                    }
                }

                if (Volatile.Read(ref _behindSince) == 0)
                {
                    Volatile.Write(ref _behindSince, _options.TimeProvider.GetTimestamp());
                }

                long position = Position;
                batch.Clear();
                await ReadAsync(position, batch, cancellationToken).ConfigureAwait(false);
                switch (ReadCheck.Judge(position, batch, end, out LogContractViolation violation, out string detail))
                {
                    case ReadCheck.Outcome.Nothing:
                        continue;
                    case ReadCheck.Outcome.Fault:
                        _add(batch); // extra bits are safe; the position stays
                        await watch.SuspectAsync(violation, detail, cancellationToken).ConfigureAwait(false);
                        continue;
                }

                _add(batch);
                Publish(batch.NextPosition);
                _observer.RecordsRead(path, batch.Count);
                watch.Clear();
            }
            catch (LogCallFailedException failed)
            {
                await watch.FailedAsync(failed.InnerException!, cancellationToken).ConfigureAwait(false);
            }
        }
    }

    // Under the gate, as every change of the contract's positions: a truncation that came after this read began must
    // not be overtaken, so then nothing is published and the loop reads again from the cut.
    private void Publish(long next)
    {
        lock (_gate)
        {
            if (Volatile.Read(ref _truncatedTo) != long.MaxValue)
            {
                return;
            }

            Volatile.Write(ref _position, next);
            _contract.Read(next);
        }
    }

    private void ApplyTruncation(LogEnd end)
    {
        long truncatedTo = Interlocked.Exchange(ref _truncatedTo, long.MaxValue);
        if (truncatedTo == long.MaxValue)
        {
            return;
        }

        end.Truncated(truncatedTo);
        if (truncatedTo < Position)
        {
            Volatile.Write(ref _position, truncatedTo);
        }
    }

    private async Task ReadAsync(long from, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        try
        {
            await _log.ReadAsync(from, batch, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (error is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            throw new LogCallFailedException(error);
        }
    }

    // The log's signal or the poll, whichever comes first. A signal that fails is counted and the poll waited out: a
    // broken notification channel must cost a poll interval, never a busy loop. The loser is cancelled synchronously
    // and not awaited: each hop through the thread pool here is a hop on every follower's staleness.
    private async Task WaitForAppendAsync(long endPosition, CancellationToken cancellationToken)
    {
        TimeProvider time = _options.TimeProvider;
        if (_log is not IStreamNameLogSignal signal)
        {
            await Task.Delay(_options.FollowPollInterval, time, cancellationToken).ConfigureAwait(false);
            return;
        }

        using var wake = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        Task polled = Task.Delay(_options.FollowPollInterval, time, wake.Token);
        Task<Exception?> signalled = WaitForSignalAsync(signal, endPosition, wake.Token);
        Task first = await Task.WhenAny(signalled, polled).ConfigureAwait(false);
        if (first == signalled && signalled.Result is { } error && !cancellationToken.IsCancellationRequested)
        {
            _observer.LogReadFailed(_options.FilterPath, error);
            await polled.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        }

        wake.Cancel();
        cancellationToken.ThrowIfCancellationRequested();
    }

    // The signal's failure as a result, never as a faulted task: one that throws after it lost the race to the poll
    // must not surface later as an unobserved exception.
    private static async Task<Exception?> WaitForSignalAsync(IStreamNameLogSignal signal, long endPosition, CancellationToken cancellationToken)
    {
        try
        {
            await signal.WaitForAppendAsync(endPosition, cancellationToken).ConfigureAwait(false);
            return null;
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            return null; // the poll won, or the filter is stopping
        }
        catch (Exception error)
        {
            return error;
        }
    }
}
