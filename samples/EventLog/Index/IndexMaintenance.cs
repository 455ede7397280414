using System.Threading.Channels;

namespace EventLog.Index;

/// <summary>
/// The index's background work, one job at a time: write each sealed memtable as a level-0 index file, then merge
/// while some level has <c>IndexMergeThreshold</c> consecutive files. Up to two sealed tables wait behind the one
/// being written; then the writer waits (the dips EventStoreDB's curve shows at each flush). A failure stops the work and is kept in
/// <see cref="Failure"/>; the engine then refuses appends rather than grow memtables without bound.
/// </summary>
internal sealed class IndexMaintenance : IAsyncDisposable
{
    private readonly StreamIndex _index;
    private readonly int _mergeThreshold;
    private readonly Channel<MemTable> _sealed = Channel.CreateBounded<MemTable>(new BoundedChannelOptions(2) { SingleReader = true, SingleWriter = true });
    private readonly Task _loop;
    private volatile Exception? _failure;

    public IndexMaintenance(StreamIndex index, int mergeThreshold)
    {
        _index = index;
        _mergeThreshold = mergeThreshold;
        _loop = Task.Run(RunAsync);
    }

    /// <summary>Why the background work stopped; null while it runs.</summary>
    public Exception? Failure => _failure;

    /// <summary>Hands a sealed memtable over to be written; waits while two are already waiting.</summary>
    public ValueTask EnqueueAsync(MemTable table, CancellationToken cancellationToken = default) =>
        _failure is { } failure ? ValueTask.FromException(failure) : _sealed.Writer.WriteAsync(table, cancellationToken);

    /// <summary>Finishes the work already handed over (every sealed table is written) and stops.</summary>
    public async ValueTask DisposeAsync()
    {
        _sealed.Writer.TryComplete();
        await _loop.ConfigureAwait(false);
    }

    private async Task RunAsync()
    {
        try
        {
            await foreach (MemTable table in _sealed.Reader.ReadAllAsync().ConfigureAwait(false))
            {
                Flush(table);
                while (IndexMerge.PickRun(CurrentFiles(), _mergeThreshold) is { } run)
                {
                    Merge(run);
                }
            }
        }
        catch (Exception error)
        {
            _failure = error;
            _sealed.Writer.TryComplete(error);
        }
    }

    private void Flush(MemTable table)
    {
        IndexEntry[] entries = table.ToSortedEntries();
        var plan = new IndexFilePlan(_index.TakeFileId(), 0, table.FromPosition, table.ToPosition, entries.Length, table.StreamCount);
        IndexFile file = IndexFile.Write(_index.Directory, plan, entries, _index.Filters);
        _index.ReplaceSealed(table, file);
        _index.Counters.Flushed();
    }

    private void Merge(IndexFile[] run)
    {
        IndexFilePlan plan = IndexMerge.PlanFor(_index.TakeFileId(), run);
        IndexFile merged = IndexFile.Write(_index.Directory, plan, IndexMerge.Entries(run), _index.Filters);
        _index.ReplaceFiles(run, merged);
        _index.Counters.Merged();
    }

    private IReadOnlyList<IndexFile> CurrentFiles()
    {
        IndexView view = _index.Acquire();
        try
        {
            return view.Files;
        }
        finally
        {
            view.Release();
        }
    }
}
