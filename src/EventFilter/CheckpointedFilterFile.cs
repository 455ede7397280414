namespace EventFilter;

/// <summary>
/// A filter file checkpointed against a log of the caller's own that is not an <see cref="IStreamNameLog"/> (eventfilterd
/// keeps each filter's items as 64-bit digests in a log of its own): opened, verified, repaired or rebuilt as the
/// stream-existence filter's is (docs/design.md, "Open sequence"), with the position its checkpoint covers. The caller
/// catches it up from <see cref="CheckpointPosition"/> with <see cref="FilterFile.AddHashes"/> and checkpoints it.
/// </summary>
public sealed class CheckpointedFilterFile : IDisposable
{
    private readonly Durability.CheckpointedFilter _filter;

    private CheckpointedFilterFile(Durability.CheckpointedFilter filter) => _filter = filter;

    /// <summary>
    /// Opens the filter file at <paramref name="path"/>, or creates it, or rebuilds it empty when it is unreadable or too
    /// corrupted (reported to <paramref name="observer"/>); a checkpoint beyond <paramref name="logEnd"/> moves back to it.
    /// With <paramref name="syncOnCreate"/> false a new file is not fsynced: for a caller whose log rebuilds a file that
    /// power loss left missing or torn.
    /// </summary>
    /// <exception cref="FilterSizeMismatchException">The file was made for another size.</exception>
    public static CheckpointedFilterFile Open(string path, FilterFileOptions options, long logEnd, FilterObserver? observer = null, bool syncOnCreate = true)
    {
        ArgumentNullException.ThrowIfNull(options);
        FilterFileOptions opening = syncOnCreate ? options : options.WithoutSyncOnCreate();
        return new(Durability.FilterOpener.OpenOrRebuild(path, opening, opening, logEnd, observer ?? new FilterObserver()));
    }

    /// <summary>The file, for adds and lookups.</summary>
    public FilterFile File => _filter.File;

    /// <summary>The log position the file durably covers: every item before it is in. Catch up from here.</summary>
    public long CheckpointPosition => _filter.DurablePosition;

    /// <summary>
    /// Makes every add so far durable and records that the log up to <paramref name="position"/> is covered (one journal
    /// append and fsync; docs/design.md, "Durability protocol"). The caller guarantees every item before it was added.
    /// </summary>
    public void Checkpoint(long position) => _filter.Checkpoint(position);

    /// <inheritdoc/>
    public void Dispose() => _filter.Dispose();
}
