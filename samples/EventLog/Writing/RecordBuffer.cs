using EventLog.Records;
using EventLog.Segments;

namespace EventLog.Writing;

/// <summary>
/// The records of one group commit, encoded in memory and written to the last segment with one positioned write, then
/// one fsync. An append that does not fit in what is left of the segment starts a new one (after making the old one
/// durable), so no append ever spans two segments.
/// </summary>
internal sealed class RecordBuffer
{
    private readonly SegmentSet _segments;
    private readonly long _segmentSize;
    private readonly int _usualSize;
    private byte[] _bytes;
    private int _count;

    public RecordBuffer(SegmentSet segments, long segmentSize, int usualSize)
    {
        _segments = segments;
        _segmentSize = segmentSize;
        _usualSize = usualSize;
        _bytes = new byte[usualSize];
    }

    /// <summary>
    /// The log position just past <paramref name="append"/>'s last record once added: the record end the filter is
    /// given with its name. A roll does not move positions, so it is the same whether or not the append starts a new
    /// segment.
    /// </summary>
    public long EndAfter(PendingAppend append) => _segments.WritePosition + _count + append.RecordBytes;

    /// <summary>True when nothing was added since the last commit.</summary>
    public bool IsEmpty { get; private set; } = true;

    /// <summary>Encodes the append's records numbered from <paramref name="firstEventNumber"/> and sets their positions.</summary>
    public void Add(PendingAppend append, long firstEventNumber, long createdTicks)
    {
        if (_segments.LastSegmentLength + _count + append.RecordBytes > _segmentSize && _segments.LastSegmentLength + _count > 0)
        {
            WriteOut();
            _segments.Roll();
        }

        EnsureRoom(append.RecordBytes);
        for (int i = 0; i < append.Events.Length; i++)
        {
            EncodedEvent e = append.Events[i];
            int length = (int)e.RecordLength(append.Utf8Name.Length);
            append.Positions[i] = _segments.WritePosition + _count;
            LogRecord.Write(
                _bytes.AsSpan(_count, length), i == append.Events.Length - 1, append.Utf8Name, e.EventType,
                firstEventNumber + i, createdTicks, e.Data.Span, e.Metadata.Span);
            _count += length;
        }

        append.FirstEventNumber = firstEventNumber;
        append.Encoded = true;
        IsEmpty = false;
    }

    /// <summary>Writes what is buffered, fsyncs, and returns the new durable end.</summary>
    public long Commit()
    {
        WriteOut();
        long end = _segments.Sync();
        IsEmpty = true;
        if (_bytes.Length > 4 * _usualSize)
        {
            _bytes = new byte[_usualSize]; // one huge append should not pin its buffer for ever
        }

        return end;
    }

    /// <summary>
    /// After a failed write or fsync: drops what is buffered and cuts the log back to the end of the last acknowledged
    /// commit (<see cref="SegmentSet.CutBack"/>). Returns that end.
    /// </summary>
    public long CutBack()
    {
        _count = 0;
        IsEmpty = true;
        return _segments.CutBack();
    }

    private void WriteOut()
    {
        _segments.Write(_bytes.AsSpan(0, _count));
        _count = 0;
    }

    private void EnsureRoom(long bytes)
    {
        if (_count + bytes > _bytes.Length)
        {
            Array.Resize(ref _bytes, (int)Math.Max(_count + bytes, Math.Min(Array.MaxLength, 2L * _bytes.Length)));
        }
    }
}
