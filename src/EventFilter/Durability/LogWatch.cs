namespace EventFilter.Durability;

/// <summary>
/// How a catch-up treats a log that breaks its rules (docs/design.md, "The log's rules"): it waits and retries with a
/// growing back-off (1 ms doubling to 1 s), and once the same violation has lasted <see cref="Patience"/> it reports it
/// to the observer, once, and goes on retrying. A transient fault (a read that comes back short once) thus costs a
/// millisecond and no report; a broken log is named within seconds, and the filter stays not ready meanwhile.
/// </summary>
internal sealed class LogWatch(string path, FilterObserver observer, TimeProvider time, TimeSpan patience)
{
    private const int MaxDelayMilliseconds = 1000;

    private LogContractViolation? _suspected;
    private long _since;
    private int _waits;
    private bool _reported;

    /// <summary>How long one violation may last before it is reported.</summary>
    public TimeSpan Patience => patience;

    /// <summary>
    /// The log looks broken in this way now: reports it if it has looked so for <see cref="Patience"/>, then waits
    /// one step of the back-off before the caller looks again.
    /// </summary>
    public Task SuspectAsync(LogContractViolation violation, string detail, CancellationToken cancellationToken)
    {
        if (_suspected != violation)
        {
            _suspected = violation;
            _since = time.GetTimestamp();
            _waits = 0;
            _reported = false;
        }

        if (!_reported && time.GetElapsedTime(_since) >= patience)
        {
            _reported = true;
            observer.LogContractViolated(path, violation, $"{detail} The filter stays not ready (every lookup answers \"maybe\") and retries until the log behaves.");
        }

        int delay = Math.Min(1 << Math.Min(_waits++, 10), MaxDelayMilliseconds);
        return Task.Delay(TimeSpan.FromMilliseconds(delay), time, cancellationToken);
    }

    /// <summary>The log made progress: whatever was suspected is over.</summary>
    public void Clear() => _suspected = null;
}
