namespace EventFilter.Daemon.Protocol;

/// <summary>
/// One parsed command: each argument is a range of the connection's read buffer, so parsing copies nothing. Ranges are
/// kept relative to the command's first byte, so a command that arrives over several reads keeps the arguments parsed
/// so far while the connection moves it to the buffer's front or grows the buffer (<see cref="Rebase"/>).
/// Reused for every command of a connection; valid until the buffer is compacted.
/// </summary>
internal sealed class CommandArguments
{
    private const int InitialCount = 16;
    private int[] _offsets = new int[InitialCount];
    private int[] _lengths = new int[InitialCount];
    private byte[] _buffer = [];
    private int _start;

    public int Count { get; private set; }

    public ReadOnlySpan<byte> this[int index] => _buffer.AsSpan(_start + _offsets[index], _lengths[index]);

    /// <summary>Starts a new command at <paramref name="start"/> of <paramref name="buffer"/>.</summary>
    public void Reset(byte[] buffer, int start = 0)
    {
        Rebase(buffer, start);
        Count = 0;
    }

    /// <summary>The same command, now at <paramref name="start"/> of <paramref name="buffer"/>: the arguments so far are kept.</summary>
    public void Rebase(byte[] buffer, int start)
    {
        _buffer = buffer;
        _start = start;
    }

    /// <summary>
    /// Between commands: gives up offset arrays a large command grew (<see cref="LargeBuffers"/>), and the read buffer,
    /// which the connection may have replaced.
    /// </summary>
    public void Trim()
    {
        _offsets = LargeBuffers.Shrink(_offsets, InitialCount);
        _lengths = LargeBuffers.Shrink(_lengths, InitialCount);
        _buffer = [];
    }

    /// <summary>Adds an argument at <paramref name="offset"/> from the command's first byte.</summary>
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
