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
    /// The position just past the last record the host has accepted, durable or not. A resize (or an online rebuild)
    /// reads it just after it starts sending adds to the new file, and does not swap until its catch-up has read up to
    /// here: an add that reached only the old file has its record before this position, even if not yet durable.
    /// </summary>
    /// <remarks>
    /// The default, <see cref="EndPosition"/>, is right for a host that adds a name only once its record is durable.
    /// A host that adds names before its fsync (as a group commit does) must return an end covering every name it has
    /// passed to Add, and must publish that end, with a full fence, before each such Add. See docs/design.md, "Resize".
    /// A wrapper around such a log must forward this member too: the default would silently reopen the race.
    /// </remarks>
    long AppendedEndPosition => EndPosition;

    /// <summary>
    /// Fills <paramref name="batch"/> (already cleared) with records at or after <paramref name="fromPosition"/>, in order,
    /// until it is full or the log ends, and sets <see cref="StreamNameBatch.NextPosition"/> to the position just past the
    /// last record read (or to <paramref name="fromPosition"/> when there is none). Names are UTF-8, copied into the batch.
    /// </summary>
    ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken);
}
