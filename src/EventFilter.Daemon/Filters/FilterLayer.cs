using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// One layer of a named filter: one of our filter files with its checkpoint, holding the items whose index in the
/// digest log falls in [<see cref="Start"/>, <see cref="Start"/> + <see cref="Capacity"/>). Opened, verified and
/// rebuilt by the core (docs/design.md, "Open sequence"), then caught up from the digest log.
/// </summary>
internal sealed class FilterLayer : IDisposable
{
    // The layer's file and its checkpoint: the position in the digest log up to which every record of this layer is in it.
    private readonly CheckpointedFilterFile _filter;
    private int _disposed;

    private FilterLayer(CheckpointedFilterFile filter, long start, long capacity, DescriptorClaim? claim)
    {
        DescriptorBudget.Opened(DescriptorBudget.DescriptorsPerLayer, claim);
        _filter = filter;
        Start = start;
        Capacity = capacity;
    }

    public long Start { get; }

    public long Capacity { get; }

    public long SizeBytes => _filter.File.Header.SizeBytes;

    public FilterFile File => _filter.File;

    public static string PathFor(string directory, int layer) => Path.Combine(directory, DataLayout.LayerFile(layer));

    /// <summary>
    /// Opens (or creates, or rebuilds) layer <paramref name="layer"/> and catches it up to the log's end; its descriptors
    /// are drawn from <paramref name="claim"/>, or counted now without one.
    /// </summary>
    public static FilterLayer Open(string directory, int layer, DigestLog log, FilterFileOptions options, FilterObserver observer, DescriptorClaim? claim, bool syncOnCreate = true)
    {
        int owed = Math.Min(claim?.Remaining ?? 0, DescriptorBudget.DescriptorsPerLayer);
        CheckpointedFilterFile filter = CheckpointedFilterFile.Open(PathFor(directory, layer), options, log.EndPosition, observer, syncOnCreate);
        var opened = new FilterLayer(filter, log.Parameters.LayerStart(layer), log.Parameters.LayerCapacity(layer), claim);
        try
        {
            opened.CatchUp(log, observer);
        }
        catch
        {
            opened.Dispose();
            claim?.Return(owed); // the layer is still owed to whoever claimed it
            throw;
        }

        return opened;
    }

    /// <summary>Records before <paramref name="position"/> that belong here are all added: make that durable.</summary>
    public void Checkpoint(long position) => _filter.Checkpoint(position);

    /// <summary>
    /// Adds this layer's records from its checkpoint to the log's end, then checkpoints there. When there were none (a
    /// new layer, or one already caught up) nothing is written: the next start would read nothing either, and a new
    /// layer made by an add must not wait for a journal's three fsyncs under the filter's lock. Reports progress once a
    /// second and at the end to <paramref name="observer"/> (logs and metrics, through EventFilter.Hosting's observer).
    /// </summary>
    private void CatchUp(DigestLog log, FilterObserver observer)
    {
        long end = Math.Min(log.EndPosition, DigestLogFormat.PositionOf(Start + Capacity));
        long start = Math.Max(_filter.CheckpointPosition, DigestLogFormat.PositionOf(Start));
        if (start >= end)
        {
            return;
        }

        // As the core's catch-up: one populate of the private copies instead of a copy-on-write fault per page.
        File.ExpectAdds((end - start) / DigestLogFormat.RecordLength);
        var reporter = new CatchUpReporter(File.Path, start, observer.CatchUpProgress);
        long position = start;
        Span<ulong> digests = new ulong[8192];
        while (position < end)
        {
            int read = log.Read(position, digests[..(int)Math.Min(digests.Length, (end - position) / sizeof(ulong))]);
            if (read == 0)
            {
                break;
            }

            File.AddHashes(digests[..read]);
            position += read * sizeof(ulong);
            reporter.Advanced(position, end, (position - start) / sizeof(ulong));
        }

        _filter.Checkpoint(log.EndPosition);
        observer.CatchUpCompleted(reporter.End(position, (position - start) / sizeof(ulong)));
    }

    public void Dispose()
    {
        _filter.Dispose();
        if (Interlocked.Exchange(ref _disposed, 1) == 0)
        {
            DescriptorBudget.Closed(DescriptorBudget.DescriptorsPerLayer);
        }
    }
}
