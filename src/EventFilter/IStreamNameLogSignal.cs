namespace EventFilter;

/// <summary>
/// Implemented by an <see cref="IStreamNameLog"/> that can say when it has grown (a database's notification, such as
/// PostgreSQL's LISTEN/NOTIFY, or an in-process log's own append), so that a filter following the log
/// (<see cref="StreamExistenceFilterOptions.FollowLog"/>) wakes at once instead of at its next poll. Optional: without
/// it the follower polls <see cref="IStreamNameLog.EndPosition"/> every
/// <see cref="StreamExistenceFilterOptions.FollowPollInterval"/>, and it keeps polling beside it, so a lost signal costs
/// at most one poll interval.
/// </summary>
public interface IStreamNameLogSignal
{
    /// <summary>
    /// Completes when <see cref="IStreamNameLog.EndPosition"/> may have moved past <paramref name="endPosition"/>: at once
    /// if it already has, so that an append between the caller's read of the end and this call is not missed. Completing
    /// early is harmless (the caller reads the end again); a fault costs a poll interval and is counted.
    /// </summary>
    ValueTask WaitForAppendAsync(long endPosition, CancellationToken cancellationToken);
}
