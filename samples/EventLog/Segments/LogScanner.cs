using EventLog.Errors;
using EventLog.Records;

namespace EventLog.Segments;

/// <summary>What <see cref="LogScanner.Next"/> found.</summary>
internal enum ScanResult
{
    /// <summary>A valid record; see <see cref="LogScanner.Header"/> and <see cref="LogScanner.Record"/>.</summary>
    Record,

    /// <summary>The scan reached its limit on a record boundary.</summary>
    End,

    /// <summary>A record starts but the bytes end (the segment or the limit) before it does.</summary>
    Torn,

    /// <summary>Bytes that are not a record: lengths that do not add up or a checksum that does not match.</summary>
    Corrupt,
}

/// <summary>
/// Reads records one after another from a position up to a limit, through a buffer refilled with positioned reads, so
/// scanning allocates nothing per record. Used by recovery (<see cref="Next"/>, which reports a torn tail), and by index
/// rebuild and the filter's catch-up (<see cref="NextDurable"/>, over the durable log, where every byte is a record).
/// </summary>
internal sealed class LogScanner
{
    private readonly SegmentSet _segments;
    private readonly long _limit;
    private byte[] _buffer;
    private long _bufferStart;
    private int _bufferLength;
    private int _recordOffset;

    public LogScanner(SegmentSet segments, long from, long limit, int bufferBytes = 256 * 1024)
    {
        _segments = segments;
        _limit = limit;
        _buffer = new byte[bufferBytes];
        Position = from;
        _bufferStart = from;
    }

    /// <summary>Where the next record starts: just past the last one read.</summary>
    public long Position { get; private set; }

    /// <summary>The position of the record last read.</summary>
    public long RecordPosition { get; private set; }

    /// <summary>The header of the record last read.</summary>
    public RecordHeader Header { get; private set; }

    /// <summary>The bytes of the record last read; valid until the next call.</summary>
    public ReadOnlySpan<byte> Record => _buffer.AsSpan(_recordOffset, Header.Length);

    /// <summary>The UTF-8 stream name of the record last read; valid until the next call.</summary>
    public ReadOnlySpan<byte> StreamName => _buffer.AsSpan(_recordOffset + RecordHeader.NameOffset, Header.StreamNameLength);

    /// <summary>
    /// Reads the next record of the durable log: false at the limit. Recovery has cut any torn tail, so a record cut
    /// short or damaged here is corruption.
    /// </summary>
    /// <exception cref="CorruptLogException">The record at <see cref="Position"/> is cut short or damaged.</exception>
    public bool NextDurable()
    {
        ScanResult result = Next();
        return result switch
        {
            ScanResult.Record => true,
            ScanResult.End => false,
            _ => throw new CorruptLogException(_segments.PathOf(Position), Position, $"a durable record is {(result == ScanResult.Torn ? "cut short" : "damaged")}"),
        };
    }

    /// <summary>Reads the next record.</summary>
    public ScanResult Next()
    {
        if (Position >= _limit)
        {
            return ScanResult.End;
        }

        RecordStatus status = CheckBuffered(out RecordHeader header, out int needed);
        if (status == RecordStatus.Incomplete)
        {
            Refill(needed);
            status = CheckBuffered(out header, out needed);
            if (status == RecordStatus.Incomplete && needed > _buffer.Length)
            {
                // Only the header was known before; now the record's full length is.
                Refill(needed);
                status = CheckBuffered(out header, out _);
            }
        }

        if (status != RecordStatus.Valid)
        {
            return status == RecordStatus.Incomplete ? ScanResult.Torn : ScanResult.Corrupt;
        }

        _recordOffset = (int)(Position - _bufferStart);
        Header = header;
        RecordPosition = Position;
        Position += header.Length;
        return ScanResult.Record;
    }

    private RecordStatus CheckBuffered(out RecordHeader header, out int needed)
    {
        long offset = Position - _bufferStart;
        if (offset < 0 || offset > _bufferLength)
        {
            header = default;
            needed = RecordHeader.Size;
            return RecordStatus.Incomplete;
        }

        return LogRecord.Check(_buffer.AsSpan((int)offset, _bufferLength - (int)offset), out header, out needed);
    }

    private void Refill(int needed)
    {
        if (needed > _buffer.Length)
        {
            _buffer = new byte[Math.Max(needed, _buffer.Length * 2)];
        }

        _bufferStart = Position;
        _bufferLength = _segments.Read(Position, _buffer, _limit);
    }
}
