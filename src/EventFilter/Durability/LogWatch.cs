namespace EventFilter.Durability;

/// <summary>
/// How a reader of the log (a catch-up or the follower) treats a log that breaks its rules or throws (docs/design.md,
/// "The log's rules"): it waits and retries with a growing back-off (1 ms doubling to 1 s), and once the same fault
/// has lasted <c>patience</c> it reports it to the observer, once, and goes on retrying. A transient fault (a
/// read that comes back short once, a dropped connection) thus costs a millisecond and no report; a broken log is
/// named within seconds, and the reader never moves past what it read meanwhile. A read past the end is reported at
/// once: no log that keeps its rules ever does it, even for a moment. When a reported fault ends, the observer hears
/// that the log answers again.
/// </summary>
internal sealed class LogWatch(string path, FilterObserver observer, TimeProvider time, TimeSpan patience, string meanwhile)
{
    private const int MaxDelayMilliseconds = 1000;

    // What the episode under way is about: a violation, or Failure for an exception of any type.
    private const int Failure = -1;
    private const int None = -2;

    private int _suspected = None;
    private long _since;
    private long _troubleSince;
    private int _waits;
    private bool _reported;
    private bool _reportedSinceProgress;

    /// <summary>
    /// The log looks broken in this way now: reports it if it has looked so for <c>patience</c> (at once for
    /// <see cref="LogContractViolation.ReadPastEnd"/>), then waits one step of the back-off before the caller looks again.
    /// </summary>
    public Task SuspectAsync(LogContractViolation violation, string detail, CancellationToken cancellationToken)
    {
        TimeSpan lasted = Begin((int)violation);
        if (!_reported && (lasted >= patience || violation == LogContractViolation.ReadPastEnd))
        {
            (_reported, _reportedSinceProgress) = (true, true);
            observer.LogContractViolated(path, violation, $"{detail} {meanwhile}");
        }

        return BackOffAsync(cancellationToken);
    }

    /// <summary>
    /// A call to the log (<c>ReadAsync</c> or <c>EndPosition</c>) threw: counts it, reports the episode once it has
    /// lasted <c>patience</c>, then waits one step of the back-off.
    /// </summary>
    public Task FailedAsync(Exception error, CancellationToken cancellationToken)
    {
        TimeSpan lasted = Begin(Failure);
        observer.LogReadFailed(path, error);
        if (!_reported && lasted >= patience)
        {
            (_reported, _reportedSinceProgress) = (true, true);
            observer.LogUnavailable(path, error, lasted);
        }

        return BackOffAsync(cancellationToken);
    }

    /// <summary>The log made progress: whatever was suspected is over, and a reported episode is said to be.</summary>
    public void Clear()
    {
        if (_suspected == None)
        {
            return;
        }

        if (_reportedSinceProgress)
        {
            observer.LogRecovered(path, time.GetElapsedTime(_troubleSince));
        }

        _suspected = None;
        _reported = _reportedSinceProgress = false;
    }

    private TimeSpan Begin(int fault)
    {
        if (_suspected != fault)
        {
            // A new kind of fault is a new episode, with its own patience; the log has not recovered meanwhile.
            _troubleSince = _suspected == None ? time.GetTimestamp() : _troubleSince;
            _suspected = fault;
            _since = time.GetTimestamp();
            _waits = 0;
            _reported = false;
        }

        return time.GetElapsedTime(_since);
    }

    private Task BackOffAsync(CancellationToken cancellationToken)
    {
        int delay = Math.Min(1 << Math.Min(_waits++, 10), MaxDelayMilliseconds);
        return Task.Delay(TimeSpan.FromMilliseconds(delay), time, cancellationToken);
    }
}
