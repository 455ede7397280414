namespace EventLog.Index;

/// <summary>
/// One consistent picture of the stream index: the active memtable, the sealed memtables waiting to be written, and the
/// index files, each list newest first. Views are immutable and replaced whole; a reader holds one for the length of a
/// lookup, and the files it can see stay open (and undeleted) until every view holding them is released.
/// </summary>
internal sealed class IndexView
{
    private int _references = 1;

    public IndexView(MemTable active, MemTable[] sealedTables, IndexFile[] files)
    {
        Active = active;
        Sealed = sealedTables;
        Files = files;
        foreach (IndexFile file in files)
        {
            file.AddReference();
        }
    }

    /// <summary>The memtable the writer adds to.</summary>
    public MemTable Active { get; }

    /// <summary>Full memtables not yet written as files, newest first.</summary>
    public IReadOnlyList<MemTable> Sealed { get; }

    /// <summary>Index files, newest first (the order a lookup walks them).</summary>
    public IReadOnlyList<IndexFile> Files { get; }

    /// <summary>Takes a reference unless the view was already let go (then the caller reads the newer one).</summary>
    public bool TryAcquire()
    {
        int seen = Volatile.Read(ref _references);
        while (seen > 0)
        {
            int found = Interlocked.CompareExchange(ref _references, seen + 1, seen);
            if (found == seen)
            {
                return true;
            }

            seen = found;
        }

        return false;
    }

    /// <summary>Drops a reference; the last one releases the files.</summary>
    public void Release()
    {
        if (Interlocked.Decrement(ref _references) == 0)
        {
            foreach (IndexFile file in Files)
            {
                file.Release();
            }
        }
    }
}
