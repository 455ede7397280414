using System.Text;

namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// A host log held in memory: UTF-8 names packed back to back, record i at position i. Reads copy names into the
/// catch-up's batch as a real log reader would, so the benchmark pays for the copy as well as for the adds. Names
/// are held in segments of 4M records, so a log may hold more bytes than one array can. A generated log holds none:
/// it writes each segment when asked (reads then pay for writing the names), so a billion names need no 47 GB.
/// </summary>
public sealed class PackedNameLog : IStreamNameLog
{
    private const int SegmentShift = 22;
    private const int SegmentRecords = 1 << SegmentShift;
    private readonly List<Segment> _segments = [];
    private readonly long _count;
    private readonly string? _generatedPrefix;
    private (int Index, Segment? Segment) _reading = (-1, null);

    public PackedNameLog(IReadOnlyList<byte[]> names)
    {
        _count = names.Count;
        for (int first = 0; first < names.Count; first += SegmentRecords)
        {
            int count = Math.Min(SegmentRecords, names.Count - first);
            var offsets = new int[count + 1];
            for (int i = 0; i < count; i++)
            {
                offsets[i + 1] = offsets[i] + names[first + i].Length;
            }

            byte[] packed = new byte[offsets[^1]];
            for (int i = 0; i < count; i++)
            {
                names[first + i].CopyTo(packed, offsets[i]);
            }

            _segments.Add(new Segment(packed, offsets));
        }
    }

    private PackedNameLog(long count, List<Segment> segments) => (_count, _segments) = (count, segments);

    private PackedNameLog(long count, string generatedPrefix) => (_count, _generatedPrefix) = (count, generatedPrefix);

    public long EndPosition => _count;

    /// <summary>The names in segments: packed bytes and offsets (one more than the names), for asking them all back.</summary>
    public IReadOnlyList<Segment> Segments => _generatedPrefix is null ? _segments : throw new InvalidOperationException("A generated log holds no segments: ask SegmentAt.");

    public int SegmentCount => (int)((_count + SegmentRecords - 1) >> SegmentShift);

    /// <summary>Segment <paramref name="index"/>: the one held, or for a generated log a new one written now.</summary>
    public Segment SegmentAt(int index) =>
        _generatedPrefix is null ? _segments[index] : Write((long)index << SegmentShift, (int)Math.Min(SegmentRecords, _count - ((long)index << SegmentShift)), _generatedPrefix);

    /// <summary>The names of <see cref="Numbered"/>, written segment by segment as they are read rather than held.</summary>
    public static PackedNameLog Generated(long count, string prefix) => new(count, prefix);

    /// <summary>
    /// <paramref name="count"/> distinct ASCII names <c>{prefix}-{i:D12}-7f3c4e8a9c6f5b3d2f1c-stream</c> (47 bytes for a
    /// 6-character prefix), written straight into the segments: no array per name, so a billion fit in memory.
    /// </summary>
    public static PackedNameLog Numbered(long count, string prefix)
    {
        var segments = new List<Segment>();
        for (long first = 0; first < count; first += SegmentRecords)
        {
            segments.Add(Write(first, (int)Math.Min(SegmentRecords, count - first), prefix));
        }

        return new PackedNameLog(count, segments);
    }

    private static Segment Write(long first, int records, string prefix)
    {
        byte[] head = Encoding.ASCII.GetBytes(prefix + "-"), tail = "-7f3c4e8a9c6f5b3d2f1c-stream"u8.ToArray();
        int length = head.Length + 12 + tail.Length;
        byte[] packed = GC.AllocateUninitializedArray<byte>(records * length);
        var offsets = new int[records + 1];
        for (int i = 0; i < records; i++)
        {
            Span<byte> name = packed.AsSpan(i * length, length);
            head.CopyTo(name);
            (first + i).TryFormat(name[head.Length..], out _, "D12", System.Globalization.CultureInfo.InvariantCulture);
            tail.CopyTo(name[(head.Length + 12)..]);
            offsets[i + 1] = (i + 1) * length;
        }

        return new Segment(packed, offsets);
    }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long position = fromPosition;
        while (position < _count)
        {
            Segment segment = Reading((int)(position >> SegmentShift));
            int i = (int)(position & (SegmentRecords - 1));
            if (!batch.TryAdd(segment.Names.AsSpan(segment.Offsets[i], segment.Offsets[i + 1] - segment.Offsets[i])))
            {
                break;
            }

            position++;
        }

        batch.NextPosition = position;
        return ValueTask.CompletedTask;
    }

    // One reader at a time (a catch-up): a generated log keeps the segment it is reading.
    private Segment Reading(int index)
    {
        if (_generatedPrefix is null)
        {
            return _segments[index];
        }

        if (_reading.Index != index)
        {
            _reading = (index, SegmentAt(index));
        }

        return _reading.Segment!;
    }

    /// <summary>Up to 4M names packed back to back; name i is bytes Offsets[i] to Offsets[i + 1].</summary>
    public sealed record Segment(byte[] Names, int[] Offsets);
}
