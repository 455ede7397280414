using EventFilter.Journal;

namespace EventFilter;

/// <summary>
/// Flush, fold and the journal they write: how changes reach the disk without ever stalling an add. The state and
/// the work are <see cref="ChangeJournal"/>'s; an add never touches it. See docs/design.md, section "Changed-line journal".
/// </summary>
public sealed partial class FilterFile
{
    /// <summary>What open found in the journal: changes flushed but not folded into the main file when it was last closed.</summary>
    public JournalSummary PendingJournal => _journal.Pending;

    /// <summary>The last checkpoint position committed to the journal, by this process or found on open; null when none.</summary>
    internal long? CommittedPosition => _journal.CommittedPosition;

    /// <summary>Told the bytes a fold or in-place flush has written so far, after each run of blocks; for crash tests.</summary>
    internal Action<long>? BlocksWritten
    {
        set => _journal.BlocksWritten = value;
    }

    /// <summary>Told about every fold (bytes written into the main file, and its duration); for telemetry.</summary>
    internal Action<FlushResult>? Folded
    {
        set => _journal.Folded = value;
    }

    /// <inheritdoc cref="ChangeJournal.PendingBytes"/>
    internal long PendingFlushBytes() => _journal.PendingBytes();

    /// <summary>The file's length in bytes: the most a flush writes.</summary>
    internal long LengthBytes => _file.Length;

    /// <summary>
    /// Makes every add that completed before this call durable: appends each changed line to the journal and fsyncs
    /// it. Adds and lookups carry on while it runs, never waiting for it; concurrent flushes run one at a time.
    /// </summary>
    public FlushResult Flush() => Flush(position: null);

    /// <summary>The flush behind <see cref="Flush()"/> and checkpoints: the commit that ends it carries <paramref name="position"/>.</summary>
    internal FlushResult Flush(long? position)
    {
        ThrowIfReadOnly();
        return _journal.Flush(position);
    }

    /// <summary>
    /// Writes every journaled change into the main file, fsyncs it, records the last checkpoint position in the
    /// checkpoint file and deletes the journal. Runs in the background by itself when the journal grows past a quarter
    /// of the file; call it to leave a file that needs no journal (before copying it, say).
    /// </summary>
    public FlushResult FoldJournal()
    {
        ThrowIfReadOnly();
        return _journal.Fold();
    }

    /// <inheritdoc cref="ChangeJournal.Rewind"/>
    internal void Rewind(long position)
    {
        ThrowIfReadOnly();
        _journal.Rewind(position);
    }

    /// <inheritdoc cref="ChangeJournal.MovedOver"/>
    internal void MovedOver(FilterFile replaced) => _journal.MovedOver(replaced._journal);

    /// <inheritdoc cref="ChangeJournal.Retire"/>
    internal void Retire() => _journal.Retire();

    /// <summary>Waits for a running background fold to finish (benchmarks count its bytes).</summary>
    internal void WaitForBackgroundFold() => _journal.WaitForBackgroundFold();
}
