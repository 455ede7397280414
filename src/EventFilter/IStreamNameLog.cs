namespace EventFilter;

/// <summary>
/// The host's log, as the filter sees it: (log position, stream name) records in position order. The filter only
/// reads it, to catch up; it never owns or writes the log. Its three rules (an honest end, complete reads, increasing
/// positions) are in docs/design.md, section "The log's rules"; a catch-up retries and reports a log that breaks them.
/// </summary>
public interface IStreamNameLog
{
    /// <summary>
    /// The position just past the last record the log holds durably: every record below it is readable. It only grows,
    /// except when the log is cut (then the host calls <c>TruncateTo</c>). Catch-up reads up to here. Read on the add
    /// path and by metrics, so it must be cheap: a database log caches it.
    /// </summary>
    long EndPosition { get; }

    /// <summary>
    /// Fills <paramref name="batch"/> (already cleared) with records at or after <paramref name="fromPosition"/>, in order,
    /// until it is full or <see cref="EndPosition"/> is reached, and sets <see cref="StreamNameBatch.NextPosition"/> to the
    /// position just past the last record read (or past a range below the end that holds none, or to
    /// <paramref name="fromPosition"/> at the end). Names are UTF-8, copied into the batch.
    /// </summary>
    ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken);
}
