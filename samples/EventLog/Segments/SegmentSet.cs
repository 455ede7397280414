using EventFilter.Storage;

namespace EventLog.Segments;

/// <summary>
/// The log's segment files end to end: a log position is the global byte offset in their concatenation. One writer
/// (the group-commit loop) appends to the last segment; any number of readers read below <see cref="DurableEnd"/>,
/// the end of the last acknowledged commit. A record never spans two segments. See samples/EventLog/README.md, "Log".
/// </summary>
internal sealed class SegmentSet : IDisposable
{
    private readonly string _directory;
    private volatile SegmentFile[] _segments;
    private long _durableEnd;

    public SegmentSet(string directory, IReadOnlyList<SegmentFile> segments, long end)
    {
        _directory = directory;
        _segments = [.. segments];
        WritePosition = end;
        _durableEnd = end;
    }

    /// <summary>Just past the last commit made durable (and so acknowledged); readers see records below it only.</summary>
    public long DurableEnd => Volatile.Read(ref _durableEnd);

    /// <summary>Just past the last byte written (durable or not). Writer only.</summary>
    public long WritePosition { get; private set; }

    /// <summary>Bytes already in the last segment. Writer only.</summary>
    public long LastSegmentLength => WritePosition - _segments[^1].Start;

    /// <summary>Number of segment files.</summary>
    public int Count => _segments.Length;

    /// <summary>
    /// For tests: asked before each step of the writer's file work with the bytes it writes (0 for the others). Null
    /// lets the step through; a number fails it with ENOSPC once that many of its bytes have landed, as a full disk
    /// does (a short write). Null in production.
    /// </summary>
    internal Func<WriteStep, int, int?>? Faults { get; set; }

    /// <summary>Writes <paramref name="bytes"/> at <see cref="WritePosition"/> in the last segment (not yet durable).</summary>
    public void Write(ReadOnlySpan<byte> bytes)
    {
        SegmentFile last = _segments[^1];
        int? landed = Faults?.Invoke(WriteStep.Write, bytes.Length);
        RandomAccess.Write(last.Handle, bytes[..(landed ?? bytes.Length)], WritePosition - last.Start);
        if (landed is not null)
        {
            throw DiskFull(WriteStep.Write, last.Path);
        }

        WritePosition += bytes.Length;
    }

    /// <summary>fsyncs the last segment and publishes the new durable end: the commit is acknowledged.</summary>
    public long Sync()
    {
        SyncLast();
        Volatile.Write(ref _durableEnd, WritePosition);
        return WritePosition;
    }

    /// <summary>
    /// Makes the last segment durable and starts a new one at <see cref="WritePosition"/>. The durable end is not
    /// published: the records before the roll belong to a commit that is not acknowledged until its own fsync.
    /// </summary>
    public void Roll()
    {
        SyncLast();
        Fail(WriteStep.CreateSegment, _directory);
        SegmentFile next = SegmentFile.Create(_directory, WritePosition);

        // Published before any durable end beyond its start, so a reader that sees such an end finds the segment.
        _segments = [.. _segments, next];
    }

    /// <summary>
    /// After a failed write or fsync: cuts the log back to <see cref="DurableEnd"/>, the end of the last acknowledged
    /// commit, durably, so that no record of the failed commit can be found by a restart's recovery. Every segment file
    /// starting past it goes (directory fsynced), then the segment holding it is truncated there (fsynced): in that
    /// order, so a crash between the two leaves segments that still end where the next begins. Readers are not
    /// affected: they read below the durable end only. Throws when the disk refuses; what is on it is then unknown.
    /// </summary>
    public long CutBack()
    {
        long end = DurableEnd;
        SegmentFile[] segments = _segments;
        int keep = IndexOf(segments, end) + 1;
        foreach (SegmentFile past in segments[keep..])
        {
            past.Dispose();
        }

        _segments = segments[..keep];
        bool deleted = false;
        foreach (string path in Directory.EnumerateFiles(_directory))
        {
            // Also one a failed roll may have left behind without opening it.
            if (SegmentFile.TryParseStart(Path.GetFileName(path)) > end)
            {
                Fail(WriteStep.DeleteSegment, path);
                File.Delete(path);
                deleted = true;
            }
        }

        if (deleted)
        {
            DurableDirectory.Sync(_directory);
        }

        SegmentFile last = segments[keep - 1];
        Fail(WriteStep.Truncate, last.Path);
        last.TruncateTo(end - last.Start);
        WritePosition = end;
        return end;
    }

    /// <summary>
    /// Reads up to <paramref name="buffer"/>.Length bytes at <paramref name="position"/>, stopping at the end of the segment
    /// holding it and at <paramref name="limit"/>. Returns the bytes read; 0 at or beyond the limit.
    /// </summary>
    public int Read(long position, Span<byte> buffer, long limit)
    {
        SegmentFile[] segments = _segments; // read after the caller sampled the limit (DurableEnd), see Roll
        int index = IndexOf(segments, position);
        if (index < 0)
        {
            return 0;
        }

        long segmentEnd = index + 1 < segments.Length ? segments[index + 1].Start : long.MaxValue;
        long available = Math.Min(segmentEnd, limit) - position;
        if (available <= 0)
        {
            return 0;
        }

        SegmentFile segment = segments[index];
        Span<byte> target = buffer[..(int)Math.Min(buffer.Length, available)];
        int total = 0;
        while (total < target.Length)
        {
            int read = RandomAccess.Read(segment.Handle, target[total..], position - segment.Start + total);
            if (read == 0)
            {
                break;
            }

            total += read;
        }

        return total;
    }

    /// <summary>The path of the segment holding <paramref name="position"/>, for error messages.</summary>
    public string PathOf(long position)
    {
        SegmentFile[] segments = _segments;
        int index = IndexOf(segments, position);
        return index < 0 ? _directory : segments[index].Path;
    }

    /// <inheritdoc/>
    public void Dispose()
    {
        foreach (SegmentFile segment in _segments)
        {
            segment.Dispose();
        }
    }

    private void SyncLast()
    {
        Fail(WriteStep.Sync, _segments[^1].Path);
        RandomAccess.FlushToDisk(_segments[^1].Handle);
    }

    private void Fail(WriteStep step, string path)
    {
        if (Faults?.Invoke(step, 0) is not null)
        {
            throw DiskFull(step, path);
        }
    }

    private static IOException DiskFull(WriteStep step, string path) => new($"No space left on device : '{path}' (injected at {step})");

    private static int IndexOf(SegmentFile[] segments, long position)
    {
        int low = 0, high = segments.Length - 1, found = -1;
        while (low <= high)
        {
            int mid = (low + high) >>> 1;
            if (segments[mid].Start <= position)
            {
                found = mid;
                low = mid + 1;
            }
            else
            {
                high = mid - 1;
            }
        }

        return found;
    }
}
