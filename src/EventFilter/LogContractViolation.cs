namespace EventFilter;

/// <summary>
/// What the filter saw its host's <see cref="IStreamNameLog"/> do against the log's rules (docs/design.md, "The log's
/// rules"). A reader (the catch-up, the follower) never takes such a read as progress: it retries, reports the violation
/// to <see cref="FilterObserver.LogContractViolated"/> once it has lasted a few seconds, and does not move on (a
/// catch-up stays not ready, answering "maybe") until the log behaves, so that a bug on the log's side costs lookups,
/// never a false negative. The last two are signs a ready filter sees at run time (docs/design.md, "Run-time signs").
/// </summary>
public enum LogContractViolation
{
    /// <summary>
    /// A read below <see cref="IStreamNameLog.EndPosition"/> returned no record and did not move
    /// <see cref="StreamNameBatch.NextPosition"/> on: either the read was short or the end is ahead of the records.
    /// </summary>
    ShortRead,

    /// <summary><see cref="IStreamNameLog.EndPosition"/> went below a value it had reported, with no <c>TruncateTo</c> in between.</summary>
    EndMovedBack,

    /// <summary>A read set <see cref="StreamNameBatch.NextPosition"/> past <see cref="IStreamNameLog.EndPosition"/>: it returned records that are not durable, or the end is stale.</summary>
    ReadPastEnd,

    /// <summary>A read returned records but did not move <see cref="StreamNameBatch.NextPosition"/> past the position it was given: positions must increase.</summary>
    PositionNotAdvancing,

    /// <summary>
    /// Seen at run time: the host's adds reached past <see cref="IStreamNameLog.EndPosition"/> and the end did not cover
    /// them for longer than the bound: an end stuck or behind the data, or one held back by a long transaction.
    /// </summary>
    EndBehindAdds,

    /// <summary>Seen at run time: a following filter's read position stopped while the log's end grew, for longer than the bound.</summary>
    FollowerStalled,
}
