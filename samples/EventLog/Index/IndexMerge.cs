namespace EventLog.Index;

/// <summary>
/// Which index files to merge, and the merged order of their entries. Files are merged in runs of consecutive files of
/// one level (size tier), so the merged file covers one contiguous log range, as every file must.
/// </summary>
internal static class IndexMerge
{
    /// <summary>
    /// The oldest run of at least <paramref name="threshold"/> consecutive files of one level, oldest first, taking the
    /// first <paramref name="threshold"/> of them; null when there is none (or merging is off: threshold 0).
    /// </summary>
    public static IndexFile[]? PickRun(IReadOnlyList<IndexFile> filesNewestFirst, int threshold)
    {
        if (threshold < 2)
        {
            return null;
        }

        var oldestFirst = filesNewestFirst.Reverse().ToArray();
        for (int start = 0; start < oldestFirst.Length;)
        {
            int end = start;
            while (end < oldestFirst.Length && oldestFirst[end].Header.Level == oldestFirst[start].Header.Level)
            {
                end++;
            }

            if (end - start >= threshold)
            {
                return oldestFirst[start..(start + threshold)];
            }

            start = end;
        }

        return null;
    }

    /// <summary>The plan of the file that merges <paramref name="inputs"/> (oldest first).</summary>
    public static IndexFilePlan PlanFor(long id, IndexFile[] inputs) => new(
        id,
        inputs.Max(f => f.Header.Level) + 1,
        inputs[0].Header.FromPosition,
        inputs[^1].Header.ToPosition,
        inputs.Sum(f => f.Header.EntryCount),
        inputs.Sum(f => f.Header.StreamCount));

    /// <summary>Every entry of every input, in key order: a k-way merge of sorted files read sequentially.</summary>
    public static IEnumerable<IndexEntry> Entries(IndexFile[] inputs)
    {
        IEnumerator<IndexEntry>[] cursors = [.. inputs.Select(f => f.ReadAll().GetEnumerator())];
        try
        {
            bool[] live = [.. cursors.Select(c => c.MoveNext())];
            while (true)
            {
                // A linear pick beats a heap for the handful of files one merge takes.
                int smallest = -1;
                for (int i = 0; i < cursors.Length; i++)
                {
                    if (live[i] && (smallest < 0 || cursors[i].Current.CompareTo(cursors[smallest].Current) < 0))
                    {
                        smallest = i;
                    }
                }

                if (smallest < 0)
                {
                    yield break;
                }

                yield return cursors[smallest].Current;
                live[smallest] = cursors[smallest].MoveNext();
            }
        }
        finally
        {
            foreach (IEnumerator<IndexEntry> cursor in cursors)
            {
                cursor.Dispose();
            }
        }
    }
}
