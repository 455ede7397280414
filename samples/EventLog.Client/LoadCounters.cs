namespace EventLog.Client;

/// <summary>What the workers have done so far; updated from every worker, read by the progress line. Latencies are on <paramref name="time"/>.</summary>
internal sealed class LoadCounters(TimeProvider time)
{
    private long _created;
    private long _conflicts;
    private long _failed;
    private long _latencyTicks;
    private string? _firstError;

    public long Created => Interlocked.Read(ref _created);

    /// <summary>409s: the stream already existed (a prefix reused from an earlier run).</summary>
    public long Conflicts => Interlocked.Read(ref _conflicts);

    /// <summary>Anything else: 4xx, 5xx, time-outs.</summary>
    public long Failed => Interlocked.Read(ref _failed);

    public long Done => Created + Conflicts + Failed;

    /// <summary>The first failure's status and body, to show once rather than once per request.</summary>
    public string? FirstError => Volatile.Read(ref _firstError);

    /// <summary>Mean time from sending an append to its answer, over every append answered.</summary>
    public TimeSpan MeanLatency => Done == 0 ? TimeSpan.Zero : time.GetElapsedTime(0, Interlocked.Read(ref _latencyTicks) / Done);

    public void RecordCreated(long startTimestamp) => Record(ref _created, startTimestamp);

    public void RecordConflict(long startTimestamp) => Record(ref _conflicts, startTimestamp);

    public void RecordFailure(long startTimestamp, string error)
    {
        Interlocked.CompareExchange(ref _firstError, error, null);
        Record(ref _failed, startTimestamp);
    }

    private void Record(ref long counter, long startTimestamp)
    {
        Interlocked.Add(ref _latencyTicks, time.GetTimestamp() - startTimestamp);
        Interlocked.Increment(ref counter);
    }
}
