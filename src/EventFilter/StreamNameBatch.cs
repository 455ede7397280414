namespace EventFilter;

/// <summary>
/// A reusable buffer of UTF-8 stream names packed back to back, filled by an <see cref="IStreamNameLog"/> and added to
/// the filter in one batch. Reused across reads, so catch-up allocates nothing per record.
/// </summary>
public sealed class StreamNameBatch
{
    private byte[] _names;
    private readonly int[] _lengths;

    /// <summary>Creates a batch for up to <paramref name="maxRecords"/> names in about <paramref name="nameBytes"/> bytes.</summary>
    public StreamNameBatch(int maxRecords = 4096, int nameBytes = 256 * 1024)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(maxRecords);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(nameBytes);
        _lengths = new int[maxRecords];
        _names = new byte[nameBytes];
    }

    /// <summary>Names in the batch.</summary>
    public int Count { get; private set; }

    /// <summary>The most names the batch holds (the <c>maxRecords</c> it was made with).</summary>
    public int Capacity => _lengths.Length;

    /// <summary>
    /// How many more names fit by count: a reader that fetches rows (a SQL <c>LIMIT</c>, say) asks for this many. Names
    /// also share a byte buffer, so <see cref="TryAdd"/> may refuse one earlier; what it refuses is read again next time.
    /// </summary>
    public int Remaining => _lengths.Length - Count;

    /// <summary>Bytes of names in the batch.</summary>
    internal int ByteCount { get; private set; }

    /// <summary>The position just past the last record read; set by the log.</summary>
    public long NextPosition { get; set; }

    /// <summary>The packed names.</summary>
    public ReadOnlySpan<byte> Names => _names.AsSpan(0, ByteCount);

    /// <summary>The byte length of each name, in order.</summary>
    internal ReadOnlySpan<int> Lengths => _lengths.AsSpan(0, Count);

    /// <summary>True when no more names fit by count (a long name may still grow the byte buffer).</summary>
    public bool IsFull => Count == _lengths.Length;

    /// <summary>Appends a name. Returns false, adding nothing, when the batch is full: read it, clear it, go on.</summary>
    public bool TryAdd(ReadOnlySpan<byte> utf8Name)
    {
        if (IsFull || (ByteCount + utf8Name.Length > _names.Length && Count > 0))
        {
            return false;
        }

        if (ByteCount + utf8Name.Length > _names.Length)
        {
            // One name larger than the whole buffer: grow once rather than never make progress.
            Array.Resize(ref _names, utf8Name.Length);
        }

        utf8Name.CopyTo(_names.AsSpan(ByteCount));
        _lengths[Count++] = utf8Name.Length;
        ByteCount += utf8Name.Length;
        return true;
    }

    /// <summary>Empties the batch for the next read.</summary>
    internal void Clear()
    {
        Count = 0;
        ByteCount = 0;
        NextPosition = 0;
    }
}
