namespace EventFilter.Daemon.Protocol;

/// <summary>
/// One parsed command: each argument is a range of the connection's read buffer, so parsing copies nothing.
/// Reused for every command of a connection; valid until the buffer is compacted.
/// </summary>
internal sealed class CommandArguments
{
    private int[] _offsets = new int[16];
    private int[] _lengths = new int[16];
    private byte[] _buffer = [];

    public int Count { get; private set; }

    public ReadOnlySpan<byte> this[int index] => _buffer.AsSpan(_offsets[index], _lengths[index]);

    public void Reset(byte[] buffer)
    {
        _buffer = buffer;
        Count = 0;
    }

    public void Add(int offset, int length)
    {
        if (Count == _offsets.Length)
        {
            Array.Resize(ref _offsets, Count * 2);
            Array.Resize(ref _lengths, Count * 2);
        }

        _offsets[Count] = offset;
        _lengths[Count] = length;
        Count++;
    }
}
