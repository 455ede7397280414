namespace EventFilter.Durability;

/// <summary>
/// The files behind one filter path: the one serving lookups and adds, the one a resize or an online rebuild builds
/// beside it, one parked after a build failed or was cancelled, and the retired ones a reader may still be probing.
/// Every change takes this class's lock; <see cref="Serving"/> and <see cref="Building"/> are read without it, on
/// the hot path. The filter takes its checkpoint gate before this lock when it needs both, never the other way.
/// </summary>
internal sealed class FilterFiles : IDisposable
{
    private readonly Lock _gate = new();
    private readonly List<CheckpointedFilter> _retired = [];
    private volatile CheckpointedFilter? _serving;
    private volatile CheckpointedFilter? _building;
    private CheckpointedFilter? _parked;
    private bool _opening;
    private long _cutWhileOpening;

    /// <summary>The file answering now; null before open, when disabled, and after dispose.</summary>
    public CheckpointedFilter? Serving => _serving;

    /// <summary>The file a resize or online rebuild is building; every add goes to it too.</summary>
    public CheckpointedFilter? Building => _building;

    /// <summary>The file opened (or rebuilt) at start.</summary>
    public void Open(CheckpointedFilter serving)
    {
        lock (_gate)
        {
            _serving = serving;
        }
    }

    /// <summary>
    /// Publishes the file to build beside the serving one: the parked one if a build failed before (it resumes from
    /// its checkpoint), else the one <paramref name="open"/> makes. Taking the parked file and publishing it is one
    /// step under the lock, so a truncation reaches it in one of the two places.
    /// </summary>
    public CheckpointedFilter PublishBuilding(Func<CheckpointedFilter> open)
    {
        lock (_gate)
        {
            if (_parked is { } parked)
            {
                _parked = null;
                _building = parked;
                return parked;
            }

            _opening = true;
            _cutWhileOpening = long.MaxValue;
        }

        // Opening may verify a whole file, so not under the lock. A truncation meanwhile is kept and applied below:
        // a file resumed from its checkpoint must not vouch for records past a cut it did not see.
        CheckpointedFilter? opened = null;
        try
        {
            opened = open();
        }
        finally
        {
            lock (_gate)
            {
                _opening = false;
                if (opened is not null)
                {
                    if (_cutWhileOpening != long.MaxValue)
                    {
                        Cut(opened, _cutWhileOpening);
                    }

                    _building = opened;
                }
            }
        }

        return opened;
    }

    /// <summary>
    /// After a failed or cancelled build: the old file goes on serving. An add may still be writing to the new file,
    /// so it stays open, parked, and the next build resumes from its checkpoint: every record past that is read
    /// again, and every name added while it was published is in it.
    /// </summary>
    public void Park(CheckpointedFilter building)
    {
        lock (_gate)
        {
            _building = null;
            _parked = building;
        }
    }

    /// <summary>
    /// Swaps the built file in: renames it over the serving file's name and retires the old one. The new file's
    /// journal is folded first so that nothing else needs renaming, and the old file stops folding, so it cannot
    /// write under the shared name after the swap. If the fold fails (a full disk), nothing has changed.
    /// </summary>
    public void SwapIn(string path, CheckpointedFilter building)
    {
        lock (_gate)
        {
            building.File.FoldJournal();
            CheckpointedFilter old = _serving!;
            old.File.Retire();
            ResizeFiles.Swap(path);
            building.MovedOver(old);
            _serving = building;
            _building = null;

            // A reader may still be probing the old mapping; it stays mapped (its file already unlinked) until Dispose,
            // but its writer lock went to the new file above, and the new file's lock on ….resize was released.
            _retired.Add(old);
        }
    }

    /// <summary>The log was cut at <paramref name="position"/>: every file that may be checkpointed again forgets what lay past it.</summary>
    public void TruncateTo(long position)
    {
        lock (_gate)
        {
            if (_opening)
            {
                _cutWhileOpening = Math.Min(_cutWhileOpening, position);
            }

            foreach (CheckpointedFilter? file in (ReadOnlySpan<CheckpointedFilter?>)[_serving, _building, _parked])
            {
                if (file is not null)
                {
                    Cut(file, position);
                }
            }
        }
    }

    private static void Cut(CheckpointedFilter file, long position)
    {
        // What was added past the cut will never be durable: a later resize must not wait for it.
        file.File.CapRecordEnds(position);
        file.RewindTo(position);
    }

    /// <summary>Unmaps and closes every file; <see cref="Serving"/> is null afterwards.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _building?.Dispose();
            _parked?.Dispose();
            _serving?.Dispose();
            _retired.ForEach(r => r.Dispose());
            _retired.Clear();
            _building = null;
            _parked = null;
            _serving = null;
        }
    }
}
