namespace EventLog.Index;

/// <summary>
/// Lookups walk the view newest first: the active memtable, the sealed ones, then every index file, each file behind
/// its own Bloom filter when there is one. This walk is what grows with the number of files (and what the
/// stream-existence filter lets a new stream skip entirely).
/// </summary>
internal sealed partial class StreamIndex
{
    /// <summary>The stream's last durable event number; -1 when the index has none of it.</summary>
    public long LastEventNumber(string streamName, ReadOnlySpan<byte> utf8Name, ulong hash)
    {
        IndexView view = Acquire();
        try
        {
            if (view.Active.LastEventNumber(streamName) is { } inActive)
            {
                return inActive;
            }

            foreach (MemTable table in view.Sealed)
            {
                if (table.LastEventNumber(streamName) is { } inSealed)
                {
                    return inSealed;
                }
            }

            foreach (IndexFile file in view.Files)
            {
                if (!file.MightContain(hash))
                {
                    Counters.FilterSkip();
                    continue;
                }

                Counters.FileRead();
                if (file.LastEventNumber(hash, utf8Name, _log) is { } inFile)
                {
                    return inFile;
                }
            }

            return -1;
        }
        finally
        {
            view.Release();
        }
    }

    /// <summary>
    /// Entries that may be the stream's events <paramref name="from"/>..<paramref name="to"/>. With
    /// <paramref name="stopWhenCovered"/>, older sources are skipped once every number has a candidate; a candidate from
    /// a colliding stream could then hide the real entry, so the caller retries without it if a number goes unconfirmed.
    /// </summary>
    public List<IndexEntry> Candidates(string streamName, ulong hash, long from, long to, bool stopWhenCovered)
    {
        var found = new List<IndexEntry>();
        var coverage = new Coverage(from, to);
        IndexView view = Acquire();
        try
        {
            view.Active.CollectRange(streamName, from, to, found);
            foreach (MemTable table in view.Sealed)
            {
                if (stopWhenCovered && coverage.IsComplete(found))
                {
                    return found;
                }

                table.CollectRange(streamName, from, to, found);
            }

            foreach (IndexFile file in view.Files)
            {
                if (stopWhenCovered && coverage.IsComplete(found))
                {
                    return found;
                }

                if (!file.MightContain(hash))
                {
                    Counters.FilterSkip();
                    continue;
                }

                Counters.FileRead();
                file.CollectRange(hash, from, to, found);
            }

            return found;
        }
        finally
        {
            view.Release();
        }
    }

    /// <summary>Which event numbers of a range have at least one candidate so far.</summary>
    private sealed class Coverage(long from, long to)
    {
        private readonly bool[] _seen = new bool[to - from + 1];
        private int _missing = (int)(to - from + 1);
        private int _counted;

        public bool IsComplete(List<IndexEntry> found)
        {
            for (; _counted < found.Count; _counted++)
            {
                long slot = found[_counted].EventNumber - from;
                if (!_seen[slot])
                {
                    _seen[slot] = true;
                    _missing--;
                }
            }

            return _missing == 0;
        }
    }
}
