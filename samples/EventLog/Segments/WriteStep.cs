namespace EventLog.Segments;

/// <summary>
/// The steps of the writer's file work, named for tests that fail one of them as a full disk would
/// (<see cref="SegmentSet.Faults"/>).
/// </summary>
internal enum WriteStep
{
    /// <summary>A positioned write of a commit's records into the last segment.</summary>
    Write,

    /// <summary>The fsync of the last segment: a commit's, or a roll's before it starts the next segment.</summary>
    Sync,

    /// <summary>A roll creating the next segment file.</summary>
    CreateSegment,

    /// <summary>Cutting back after a failure: deleting a segment file that starts past the acknowledged end.</summary>
    DeleteSegment,

    /// <summary>Cutting back after a failure: truncating the last segment to the acknowledged end, and its fsync.</summary>
    Truncate,
}
