namespace EventFilter.Durability;

/// <summary>
/// What one read says against the log's rules (docs/design.md, "The log's rules"), the same for a catch-up and the
/// follower: progress, nothing (the end was reached meanwhile), or a fault. A fault never moves the reader's position.
/// </summary>
internal static class ReadCheck
{
    public enum Outcome
    {
        /// <summary>The read moved on, and no further than the end: its records may be taken as read.</summary>
        Progress,

        /// <summary>The read returned nothing and the end, sampled again, is not above where it started: nothing to do.</summary>
        Nothing,

        /// <summary>The read broke a rule; its names go in (extra bits are safe), the position stays.</summary>
        Fault,
    }

    /// <summary>
    /// Judges a read from <paramref name="from"/> against <paramref name="end"/>, sampling the end again when the read
    /// ended at or past the value in hand (the log may have grown since it was sampled).
    /// </summary>
    public static Outcome Judge(long from, StreamNameBatch batch, LogEnd end, out LogContractViolation violation, out string detail)
    {
        (violation, detail) = (default, "");
        if (batch.NextPosition > from && batch.NextPosition <= end.Value)
        {
            return Outcome.Progress;
        }

        end.Sample();
        if (batch.NextPosition > from)
        {
            if (batch.NextPosition <= end.Value)
            {
                return Outcome.Progress;
            }

            // Taken as progress, a read past the end would be kept as the position: every record between the end and
            // the position it claims would be skipped once the log grows past it (docs/design.md, "The log's rules").
            (violation, detail) = (LogContractViolation.ReadPastEnd, $"ReadAsync({from}) returned {batch.Count} records and set NextPosition to {batch.NextPosition}, past EndPosition ({end.Value}): reads must stop at the durable end, and EndPosition must cover every record a read returns. Those records are read again once the end covers them.");
            return Outcome.Fault;
        }

        if (batch.Count > 0)
        {
            (violation, detail) = (LogContractViolation.PositionNotAdvancing, $"ReadAsync({from}) returned {batch.Count} records but set NextPosition to {batch.NextPosition}: NextPosition must be just past the last record read, and record positions must increase.");
            return Outcome.Fault;
        }

        if (from < end.Value)
        {
            // Nothing read, yet the log owes records below its end.
            (violation, detail) = (LogContractViolation.ShortRead, $"ReadAsync({from}) returned no record while EndPosition is {end.Value}: a read must return the durable records from the position it is given (or set NextPosition past a range that holds none), and EndPosition must not be ahead of the records.");
            return Outcome.Fault;
        }

        return Outcome.Nothing;
    }
}
