using System.Text;

namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// A host log held in memory: UTF-8 names packed back to back, record i at position i. Reads copy names into the
/// catch-up's batch as a real log reader would, so the benchmark pays for the copy as well as for the adds. Names
/// are held in segments of 4M records, so a log may hold more bytes than one array can.
/// </summary>
public sealed class PackedNameLog : IStreamNameLog
{
    private const int SegmentShift = 22;
    private const int SegmentRecords = 1 << SegmentShift;
    private readonly List<Segment> _segments = [];
    private readonly long _count;

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

    public long EndPosition => _count;

    /// <summary>The names in segments: packed bytes and offsets (one more than the names), for asking them all back.</summary>
    public IReadOnlyList<Segment> Segments => _segments;

    /// <summary>
    /// <paramref name="count"/> distinct ASCII names <c>{prefix}-{i:D12}-7f3c4e8a9c6f5b3d2f1c-stream</c> (47 bytes for a
    /// 6-character prefix), written straight into the segments: no array per name, so a billion fit in memory.
    /// </summary>
    public static PackedNameLog Numbered(long count, string prefix)
    {
        byte[] head = Encoding.ASCII.GetBytes(prefix + "-"), tail = "-7f3c4e8a9c6f5b3d2f1c-stream"u8.ToArray();
        int length = head.Length + 12 + tail.Length;
        var segments = new List<Segment>();
        for (long first = 0; first < count; first += SegmentRecords)
        {
            int records = (int)Math.Min(SegmentRecords, count - first);
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

            segments.Add(new Segment(packed, offsets));
        }

        return new PackedNameLog(count, segments);
    }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long position = fromPosition;
        while (position < _count)
        {
            Segment segment = _segments[(int)(position >> SegmentShift)];
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

    /// <summary>Up to 4M names packed back to back; name i is bytes Offsets[i] to Offsets[i + 1].</summary>
    public sealed record Segment(byte[] Names, int[] Offsets);
}
