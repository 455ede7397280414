namespace EventLog.Segments;

/// <summary>
/// The log's segment files end to end: a log position is the global byte offset in their concatenation. One writer
/// (the group-commit loop) appends to the last segment; any number of readers read below <see cref="DurableEnd"/>.
/// A record never spans two segments. See samples/EventLog/README.md, "Log".
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

    /// <summary>Just past the last byte made durable by an fsync; readers see records below it only.</summary>
    public long DurableEnd => Volatile.Read(ref _durableEnd);

    /// <summary>Just past the last byte written (durable or not). Writer only.</summary>
    public long WritePosition { get; private set; }

    /// <summary>Bytes already in the last segment. Writer only.</summary>
    public long LastSegmentLength => WritePosition - _segments[^1].Start;

    /// <summary>Number of segment files.</summary>
    public int Count => _segments.Length;

    /// <summary>Writes <paramref name="bytes"/> at <see cref="WritePosition"/> in the last segment (not yet durable).</summary>
    public void Write(ReadOnlySpan<byte> bytes)
    {
        SegmentFile last = _segments[^1];
        RandomAccess.Write(last.Handle, bytes, WritePosition - last.Start);
        WritePosition += bytes.Length;
    }

    /// <summary>fsyncs the last segment and publishes the new durable end.</summary>
    public long Sync()
    {
        RandomAccess.FlushToDisk(_segments[^1].Handle);
        Volatile.Write(ref _durableEnd, WritePosition);
        return WritePosition;
    }

    /// <summary>Makes the last segment durable and starts a new one at <see cref="WritePosition"/>.</summary>
    public void Roll()
    {
        Sync();
        SegmentFile next = SegmentFile.Create(_directory, WritePosition);

        // Published before any durable end beyond its start, so a reader that sees such an end finds the segment.
        _segments = [.. _segments, next];
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
