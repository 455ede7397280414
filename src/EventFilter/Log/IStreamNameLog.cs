namespace EventFilter;

/// <summary>
/// The host's log, as the filter sees it: (log position, stream name) records in position order. The filter only
/// reads it, to catch up; it never owns or writes the log. See docs/design.md, section "The log is the host's".
/// </summary>
public interface IStreamNameLog
{
    /// <summary>The position just past the last record the log holds durably. Catch-up reads up to here.</summary>
    long EndPosition { get; }

    /// <summary>
    /// Fills <paramref name="batch"/> (already cleared) with records at or after <paramref name="fromPosition"/>, in order,
    /// until it is full or the log ends, and sets <see cref="StreamNameBatch.NextPosition"/> to the position just past the
    /// last record read (or to <paramref name="fromPosition"/> when there is none). Names are UTF-8, copied into the batch.
    /// </summary>
    ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken);
}
