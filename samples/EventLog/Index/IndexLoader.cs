namespace EventLog.Index;

/// <summary>
/// Opens the index files left by the last run. A crash may leave a merge's inputs beside its output (they are dropped:
/// their range lies inside the output's), temporary files and filters without a file (deleted). Any file that fails
/// its checks, a gap in the covered ranges, or a range beyond the log's end drops every file: the index is derived
/// data and is rebuilt from the log. See README.md, "Index files".
/// </summary>
internal static class IndexLoader
{
    public static IndexFile[] Load(string directory, PerFileFilters filters, long logEnd, out IndexRecovery recovery, out long nextFileId)
    {
        Directory.CreateDirectory(directory);
        DeleteLeftovers(directory);
        var ids = Directory.EnumerateFiles(directory).Select(p => IndexFile.TryParseId(Path.GetFileName(p))).OfType<long>().Order().ToList();
        nextFileId = ids.Count > 0 ? ids[^1] + 1 : 1;
        var files = new List<IndexFile>();
        try
        {
            ids.ForEach(id => files.Add(IndexFile.Open(IndexFile.PathFor(directory, id), id, filters)));
            files = DropSuperseded(files);
            if (RangeProblem(files, logEnd) is { } problem)
            {
                throw new CorruptIndexFileException(directory, problem);
            }
        }
        catch (CorruptIndexFileException corrupt)
        {
            files.ForEach(f => f.DeleteWhenUnused());
            files.ForEach(f => f.Release());
            DeleteAll(directory);
            recovery = new IndexRecovery(0, 0, corrupt.Message);
            return [];
        }

        recovery = new IndexRecovery(files.Count, files.Count > 0 ? files[^1].Header.ToPosition : 0, null);
        files.Reverse();
        return [.. files];
    }

    // A merge writes its output before deleting its inputs; a crash between leaves inputs whose range lies inside it.
    private static List<IndexFile> DropSuperseded(List<IndexFile> files)
    {
        var kept = new List<IndexFile>();
        foreach (IndexFile file in files)
        {
            bool inside = files.Any(o => o != file && o.Header.FromPosition <= file.Header.FromPosition && o.Header.ToPosition >= file.Header.ToPosition
                && (o.Header.ToPosition - o.Header.FromPosition > file.Header.ToPosition - file.Header.FromPosition || o.Id > file.Id));
            if (inside)
            {
                file.DeleteWhenUnused();
                file.Release();
            }
            else
            {
                kept.Add(file);
            }
        }

        kept.Sort((a, b) => a.Header.FromPosition.CompareTo(b.Header.FromPosition));
        return kept;
    }

    private static string? RangeProblem(List<IndexFile> oldestFirst, long logEnd)
    {
        long expected = 0;
        foreach (IndexFile file in oldestFirst)
        {
            if (file.Header.FromPosition != expected)
            {
                return $"'{file.Path}' covers the log from {file.Header.FromPosition} but the files before it end at {expected}";
            }

            expected = file.Header.ToPosition;
        }

        return expected > logEnd ? $"the index files cover the log up to {expected} but the log ends at {logEnd}" : null;
    }

    private static void DeleteLeftovers(string directory)
    {
        foreach (string path in Directory.EnumerateFiles(directory, "*.tmp"))
        {
            File.Delete(path);
        }

        foreach (string bloom in Directory.EnumerateFiles(directory, "*.bloom"))
        {
            if (!File.Exists(Path.ChangeExtension(bloom, ".idx")))
            {
                File.Delete(bloom);
            }
        }

        foreach (string lockFile in Directory.EnumerateFiles(directory, "*.bloom.lock"))
        {
            if (!File.Exists(lockFile[..^".lock".Length]))
            {
                File.Delete(lockFile);
            }
        }
    }

    private static void DeleteAll(string directory)
    {
        foreach (string path in Directory.EnumerateFiles(directory).Where(p => p.EndsWith(".idx", StringComparison.Ordinal) || p.EndsWith(".bloom", StringComparison.Ordinal) || p.EndsWith(".bloom.lock", StringComparison.Ordinal)))
        {
            File.Delete(path);
        }
    }
}
