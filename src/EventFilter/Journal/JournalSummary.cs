namespace EventFilter;

/// <summary>
/// What an open found in a filter's journal: changes flushed but not yet folded into the main file.
/// See docs/design.md, section "Changed-line journal".
/// </summary>
/// <param name="Files">Journal generations read.</param>
/// <param name="LineRecords">Changed-line records applied.</param>
/// <param name="Commits">Commit records read (one per flush).</param>
/// <param name="Bytes">Bytes of journal read.</param>
/// <param name="Position">The checkpoint position of the last commit that carried one; null when none did.</param>
/// <param name="Damage">
/// Why reading stopped before the end, when it did: a record or header that failed its checksum or is out of range.
/// Nothing from that point on is applied, and <paramref name="Position"/> is the last one before it. Null when the
/// journal was read to its end (a record cut short at the very end, left by a crash mid-append, is not damage).
/// </param>
public sealed record JournalSummary(int Files, long LineRecords, long Commits, long Bytes, long? Position, string? Damage)
{
    /// <summary>No journal at all.</summary>
    public static JournalSummary None { get; } = new(0, 0, 0, 0, null, null);

    /// <summary>True when there is nothing waiting to be folded.</summary>
    public bool IsEmpty => Files == 0;
}
