namespace EventLog.Segments;

/// <summary>
/// Opens the segment files and repairs a crash: every segment but the last was fsynced before the next was created, so
/// only the last is scanned. Its tail is cut back to the end of the last whole append (a record with a bad checksum, a
/// partial record, or the records of an append whose last record never made it). See README.md, "Recovery".
/// </summary>
internal static class LogOpener
{
    public static SegmentSet Open(string directory, out LogRecovery recovery)
    {
        Directory.CreateDirectory(directory);
        List<SegmentFile> segments = OpenSegments(directory);
        try
        {
            if (segments.Count == 0)
            {
                segments.Add(SegmentFile.Create(directory, 0));
            }

            CheckContiguous(segments);
            SegmentFile last = segments[^1];
            long fileEnd = last.Start + last.FileLength;
            long end = EndOfLastWholeAppend(new SegmentSet(directory, segments, fileEnd), last.Start, fileEnd);
            if (end < fileEnd)
            {
                last.TruncateTo(end - last.Start);
            }

            recovery = new LogRecovery(segments.Count, end, fileEnd - end);
            return new SegmentSet(directory, segments, end);
        }
        catch
        {
            segments.ForEach(s => s.Dispose());
            throw;
        }
    }

    private static List<SegmentFile> OpenSegments(string directory)
    {
        var found = new List<(long Start, string Path)>();
        foreach (string path in Directory.EnumerateFiles(directory))
        {
            if (SegmentFile.TryParseStart(Path.GetFileName(path)) is { } start)
            {
                found.Add((start, path));
            }
        }

        found.Sort((a, b) => a.Start.CompareTo(b.Start));
        var segments = new List<SegmentFile>(found.Count);
        try
        {
            found.ForEach(f => segments.Add(SegmentFile.Open(f.Path, f.Start)));
            return segments;
        }
        catch
        {
            segments.ForEach(s => s.Dispose());
            throw;
        }
    }

    // Segments are named by their first position, so each must end exactly where the next begins.
    private static void CheckContiguous(List<SegmentFile> segments)
    {
        if (segments[0].Start != 0)
        {
            throw new Errors.CorruptLogException(segments[0].Path, 0, $"the log must start at position 0 but its first segment starts at {segments[0].Start}");
        }

        for (int i = 0; i + 1 < segments.Count; i++)
        {
            long expected = segments[i + 1].Start - segments[i].Start;
            if (segments[i].FileLength != expected)
            {
                throw new Errors.CorruptLogException(
                    segments[i].Path, segments[i].Start, $"the segment holds {segments[i].FileLength} bytes but the next segment starts {expected} bytes after it");
            }
        }
    }

    private static long EndOfLastWholeAppend(SegmentSet untrusted, long from, long fileEnd)
    {
        var scanner = new LogScanner(untrusted, from, fileEnd);
        long end = from;
        while (scanner.Next() == ScanResult.Record)
        {
            if (scanner.Header.IsLastOfAppend)
            {
                end = scanner.Position;
            }
        }

        return end;
    }
}
