namespace EventFilter.Durability;

/// <summary>
/// What a ready filter can see of a wrong end at run time (docs/design.md, "Run-time signs"), from the samples of
/// <see cref="IStreamNameLog.EndPosition"/> it takes anyway: at each checkpoint, and at each of the follower's wakes.
/// An end that moves back with no truncation; an end that stays behind the host's adds for longer than the bound (stuck,
/// behind the data, or held back by a long transaction); a follower whose position stops while the end grows. Each
/// kind is reported at most once per <see cref="QuietPeriod"/> while it lasts, so a log that misbehaves now and then is
/// named without a flood. Thread-safe: samples come from the checkpoint path and the follower.
/// </summary>
internal sealed class LogEndChecks(string path, FilterObserver observer, TimeProvider time, TimeSpan bound)
{
    /// <summary>The least time between two reports of one kind.</summary>
    public static readonly TimeSpan QuietPeriod = TimeSpan.FromMinutes(10);

    private readonly Lock _gate = new();
    private readonly Dictionary<LogContractViolation, long> _reportedAt = [];
    private long _highestEnd = -1;
    private long _behindTarget = -1; // the adds' end the log's end must reach to close the episode under way
    private long _behindSince;
    private long _followerAt = -1;
    private long _followerSince;

    /// <summary>
    /// One sample: the log's <paramref name="end"/>, the highest record end the host has added, and the follower's
    /// position (null when not following).
    /// </summary>
    public void Sampled(long end, long addedEnd, long? followerPosition)
    {
        lock (_gate)
        {
            long now = time.GetTimestamp();
            if (end < _highestEnd)
            {
                Report(now, LogContractViolation.EndMovedBack, $"EndPosition went back from {_highestEnd} to {end} with no TruncateTo: the durable end only grows, and when the log is cut the host must call TruncateTo. Seen at run time; checkpoints claim no more than was read or added, so nothing is lost, but a catch-up on this log would wait for the end to come back.");
            }

            _highestEnd = Math.Max(_highestEnd, end);
            CheckBehindAdds(now, end, addedEnd);
            if (followerPosition is { } position)
            {
                CheckFollower(now, end, position);
            }
        }
    }

    /// <summary>The host cut its log: the end may go back to there.</summary>
    public void Truncated(long position)
    {
        lock (_gate)
        {
            _highestEnd = Math.Min(_highestEnd, position);
            _behindTarget = -1;
        }
    }

    // An episode starts when the adds are past the end, and ends when the end reaches where the adds were then: an end
    // that keeps moving but always lags a little (a host that adds before its fsync) ends each episode in time.
    private void CheckBehindAdds(long now, long end, long addedEnd)
    {
        if (_behindTarget >= 0 && end >= _behindTarget)
        {
            _behindTarget = -1;
        }

        if (_behindTarget < 0)
        {
            if (addedEnd > end)
            {
                (_behindTarget, _behindSince) = (addedEnd, now);
            }

            return;
        }

        if (time.GetElapsedTime(_behindSince, now) >= bound)
        {
            Report(now, LogContractViolation.EndBehindAdds, $"the host's adds reached {_behindTarget} but EndPosition has stayed below it (now {end}) for {time.GetElapsedTime(_behindSince, now).TotalSeconds:F0} s: the end is stuck or behind the data, or a long transaction holds it back. A catch-up after a restart would end at this end; the records past it are read only when it moves.");
        }
    }

    private void CheckFollower(long now, long end, long position)
    {
        if (position != _followerAt || end <= position)
        {
            (_followerAt, _followerSince) = (position, now);
            return;
        }

        if (time.GetElapsedTime(_followerSince, now) >= bound)
        {
            Report(now, LogContractViolation.FollowerStalled, $"the follower has stayed at position {position} for {time.GetElapsedTime(_followerSince, now).TotalSeconds:F0} s while EndPosition is {end}: its reads fail or break the log's rules (see the reports before this one). It answers from what it has read, and checkpoints claim no more.");
        }
    }

    private void Report(long now, LogContractViolation violation, string detail)
    {
        if (_reportedAt.TryGetValue(violation, out long last) && time.GetElapsedTime(last, now) < QuietPeriod)
        {
            return;
        }

        _reportedAt[violation] = now;
        observer.LogContractViolated(path, violation, detail);
    }
}
