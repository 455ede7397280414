
namespace EventFilter.Durability;

/// <summary>
/// A filter file together with its checkpoint position, and the one place that takes checkpoints: the changed lines
/// and a commit record carrying the position go into the journal with one fsync. See docs/design.md, section
/// "Durability protocol".
/// </summary>
internal sealed class CheckpointedFilter : IDisposable
{
    private readonly Lock _gate = new();
    private readonly FilterObserver _observer;

    public CheckpointedFilter(FilterFile file, long startPosition, FilterObserver observer)
    {
        File = file;
        DurablePosition = startPosition;
        _observer = observer;
        file.Folded = fold => observer.JournalFolded(file.Path, fold);
    }

    public FilterFile File { get; }

    /// <summary>The position the checkpoint file vouches for now; catch-up starts here.</summary>
    public long DurablePosition { get; private set; }

    /// <summary>Bumped by every <see cref="RewindTo"/>; a catch-up that read the log before a truncation must not checkpoint after it.</summary>
    public long Epoch { get; private set; }

    /// <summary>
    /// Makes every completed add durable, then records <paramref name="position"/>. The caller guarantees every name
    /// in records before it was added. Positions never move back here; only <see cref="RewindTo"/> does that.
    /// With <paramref name="epoch"/>, nothing is written if a truncation happened since the caller read it; returns false then.
    /// </summary>
    public bool Checkpoint(long position, long? epoch = null)
    {
        FlushResult flush;
        lock (_gate)
        {
            if (epoch is { } expected && expected != Epoch)
            {
                return false;
            }

            if (position < DurablePosition)
            {
                return true;
            }

            flush = File.Flush(position);
            DurablePosition = position;
        }

        _observer.CheckpointWritten(File.Path, position, flush);
        return true;
    }

    /// <summary>Moves the checkpoint back (the log was truncated). Bits stay: extra bits are only false positives.</summary>
    public void RewindTo(long position)
    {
        long from;
        lock (_gate)
        {
            from = DurablePosition;
            if (position >= from)
            {
                return;
            }

            File.Rewind(position);
            DurablePosition = position;
            Epoch++;
        }

        _observer.Truncated(File.Path, from, position);
    }

    /// <summary>After a resize swap renamed the files over <paramref name="replaced"/>'s, later journals, checkpoints and the writer lock go by its name.</summary>
    public void MovedOver(CheckpointedFilter replaced)
    {
        lock (_gate)
        {
            File.MovedOver(replaced.File);
        }
    }

    public void Dispose() => File.Dispose();
}
