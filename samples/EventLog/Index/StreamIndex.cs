using EventLog.Segments;

namespace EventLog.Index;

/// <summary>
/// The LSM stream index: an active memtable, sealed memtables being written, and immutable index files, published as
/// one <see cref="IndexView"/> at a time. The writer adds to the active memtable and seals it when full; the background
/// <see cref="IndexMaintenance"/> turns sealed tables into files and merges files. Lookups are in StreamIndex.Lookup.cs.
/// </summary>
internal sealed partial class StreamIndex : IDisposable
{
    private readonly Lock _publishGate = new();
    private readonly LogReader _log;
    private IndexView _current;
    private long _nextFileId;

    public StreamIndex(string directory, PerFileFilters filters, LogReader log, IndexFile[] filesNewestFirst, long indexedTo, long nextFileId)
    {
        Directory = directory;
        Filters = filters;
        _log = log;
        _nextFileId = nextFileId;
        _current = new IndexView(new MemTable(indexedTo), [], filesNewestFirst);
        foreach (IndexFile file in filesNewestFirst)
        {
            file.Release(); // the view holds them now
        }
    }

    /// <summary>Where the index files live.</summary>
    public string Directory { get; }

    /// <summary>Whether new files get their own Bloom filter.</summary>
    public PerFileFilters Filters { get; }

    /// <summary>What lookups, flushes and merges have done.</summary>
    public IndexCounters Counters { get; } = new();

    /// <summary>The memtable the writer adds to.</summary>
    public MemTable Active => Volatile.Read(ref _current).Active;

    /// <summary>Index files now.</summary>
    public int FileCount => Volatile.Read(ref _current).Files.Count;

    /// <summary>Entries in memtables (active and sealed) now.</summary>
    public long MemTableEntries
    {
        get
        {
            IndexView view = Volatile.Read(ref _current);
            return view.Active.Count + view.Sealed.Sum(t => (long)t.Count);
        }
    }

    /// <summary>The current view, referenced: release it when done.</summary>
    public IndexView Acquire()
    {
        while (true)
        {
            IndexView view = Volatile.Read(ref _current);
            if (view.TryAcquire())
            {
                return view;
            }
        }
    }

    /// <summary>A number for the next index file.</summary>
    public long TakeFileId() => Interlocked.Increment(ref _nextFileId) - 1;

    /// <summary>Writer: seals the active memtable (it covers up to its <see cref="MemTable.ToPosition"/>) and starts a new one.</summary>
    public MemTable SealActive()
    {
        lock (_publishGate)
        {
            IndexView current = _current;
            Publish(new IndexView(new MemTable(current.Active.ToPosition), [current.Active, .. current.Sealed], [.. current.Files]));
            return current.Active;
        }
    }

    /// <summary>A sealed memtable is now on disk as <paramref name="file"/>, the newest file.</summary>
    public void ReplaceSealed(MemTable table, IndexFile file)
    {
        lock (_publishGate)
        {
            IndexView current = _current;
            Publish(new IndexView(current.Active, [.. current.Sealed.Where(t => t != table)], [file, .. current.Files]));
        }

        file.Release(); // the view holds it now
    }

    /// <summary>Consecutive files were merged into <paramref name="merged"/>; they are deleted once no reader sees them.</summary>
    public void ReplaceFiles(IReadOnlyCollection<IndexFile> inputs, IndexFile merged)
    {
        foreach (IndexFile input in inputs)
        {
            input.DeleteWhenUnused();
        }

        lock (_publishGate)
        {
            IndexView current = _current;
            var files = new List<IndexFile>(current.Files.Count);
            foreach (IndexFile file in current.Files)
            {
                if (!inputs.Contains(file))
                {
                    files.Add(file);
                }
                else if (!files.Contains(merged))
                {
                    files.Add(merged);
                }
            }

            Publish(new IndexView(current.Active, [.. current.Sealed], [.. files]));
        }

        merged.Release();
    }

    /// <summary>Closes every file. Readers must have stopped.</summary>
    public void Dispose()
    {
        lock (_publishGate)
        {
            _current.Release();
        }
    }

    private void Publish(IndexView next)
    {
        IndexView previous = _current;
        Volatile.Write(ref _current, next);
        previous.Release();
    }
}
