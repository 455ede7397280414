using System.Buffers;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Server;

/// <summary>
/// A connection's read buffer: borrowed from the shared pool when a read is due and given back while the connection
/// waits with nothing pending, so that an idle connection holds no buffer at all. It grows only as far as one command
/// needs (bounded by <see cref="RespLimits.MaxCommandBytes"/>); a buffer grown past <see cref="LargeBuffers.KeepBytes"/>
/// is never pooled, but dropped and counted for <see cref="MemoryTrim"/> once its command is done.
/// </summary>
internal sealed class ReadBuffer(int maxBytes)
{
    private const int InitialBytes = 16 * 1024;
    private byte[] _bytes = [];

    /// <summary>The buffer; bytes [0, <see cref="Filled"/>) are read and not yet consumed.</summary>
    public byte[] Bytes => _bytes;

    public int Filled { get; private set; }

    /// <summary>Room for the next read: borrows a buffer if none is held, and doubles a full one (up to the limit).</summary>
    public Memory<byte> Space()
    {
        if (_bytes.Length == 0)
        {
            _bytes = ArrayPool<byte>.Shared.Rent(InitialBytes);
        }
        else if (Filled == _bytes.Length)
        {
            int size = Math.Min(_bytes.Length * 2, Math.Max(maxBytes, _bytes.Length + 1));
            byte[] larger = size <= LargeBuffers.KeepBytes ? ArrayPool<byte>.Shared.Rent(size) : new byte[size];
            _bytes.AsSpan(0, Filled).CopyTo(larger);
            Give(_bytes);
            _bytes = larger;
        }

        return _bytes.AsMemory(Filled);
    }

    public void Received(int bytes) => Filled += bytes;

    /// <summary>The first <paramref name="bytes"/> are consumed: the tail moves to the front, for the next read to extend.</summary>
    public void Consumed(int bytes)
    {
        _bytes.AsSpan(bytes, Filled - bytes).CopyTo(_bytes);
        Filled -= bytes;
    }

    /// <summary>After a command's replies: a buffer grown for a large command is swapped for a pooled one when what is left fits.</summary>
    public void Shrink()
    {
        if (_bytes.Length > LargeBuffers.KeepBytes && Filled <= InitialBytes)
        {
            byte[] small = ArrayPool<byte>.Shared.Rent(InitialBytes);
            _bytes.AsSpan(0, Filled).CopyTo(small);
            Give(_bytes);
            _bytes = small;
        }
    }

    /// <summary>Nothing is pending (<see cref="Filled"/> is 0): the buffer goes back, and the next read borrows one.</summary>
    public void Release()
    {
        Give(_bytes);
        _bytes = [];
        Filled = 0;
    }

    private static void Give(byte[] bytes)
    {
        if (bytes.Length > LargeBuffers.KeepBytes)
        {
            LargeBuffers.Released(bytes);
        }
        else if (bytes.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(bytes);
        }
    }
}
