namespace EventFilter;

/// <summary>
/// What an open found in a filter's journal: changes flushed but not yet folded into the main file.
/// See docs/design.md, section "Changed-line journal".
/// </summary>
public sealed class JournalSummary
{
    internal JournalSummary(int files, long lineRecords, long commits, long bytes, long? position, string? damage)
    {
        Files = files;
        LineRecords = lineRecords;
        Commits = commits;
        Bytes = bytes;
        Position = position;
        Damage = damage;
    }

    /// <summary>Journal generations read.</summary>
    public int Files { get; }

    /// <summary>Changed-line records applied.</summary>
    public long LineRecords { get; }

    /// <summary>Commit records read (one per flush).</summary>
    public long Commits { get; }

    /// <summary>Bytes of journal read.</summary>
    public long Bytes { get; }

    /// <summary>The checkpoint position of the last commit that carried one; null when none did.</summary>
    public long? Position { get; }

    /// <summary>
    /// Why reading stopped before the end, when it did: a record or header that failed its checksum or is out of range.
    /// Nothing from that point on is applied, and <see cref="Position"/> is the last one before it. Null when the
    /// journal was read to its end (a record cut short at the very end, left by a crash mid-append, is not damage).
    /// </summary>
    public string? Damage { get; }

    /// <summary>No journal at all.</summary>
    internal static JournalSummary None { get; } = new(0, 0, 0, 0, null, null);

    /// <summary>True when there is nothing waiting to be folded.</summary>
    internal bool IsEmpty => Files == 0;
}
