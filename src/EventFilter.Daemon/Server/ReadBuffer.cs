using System.Buffers;
using EventFilter.Daemon.Protocol;

namespace EventFilter.Daemon.Server;

/// <summary>
/// A connection's read buffer. Between requests it is a small array of the connection's own, enough for an ordinary
/// request, so that waiting for the client's next one costs one read into it and a few hundred bytes of memory; a
/// request that fills it continues in a buffer borrowed from the shared pool, given back once nothing is pending. It
/// grows only as far as one command needs (bounded by <see cref="RespLimits.MaxCommandBytes"/>); a buffer grown past
/// <see cref="LargeBuffers.KeepBytes"/> is never pooled, but dropped and counted for <see cref="MemoryTrim"/>.
/// </summary>
internal sealed class ReadBuffer(int maxBytes)
{
    /// <summary>The resting buffer's size: a single command of a few short arguments, as most clients send, fits.</summary>
    public const int RestingBytes = 256;

    private const int InitialBytes = 16 * 1024;
    private readonly byte[] _resting = new byte[RestingBytes];
    private byte[] _bytes = [];

    /// <summary>The buffer; bytes [0, <see cref="Filled"/>) are read and not yet consumed.</summary>
    public byte[] Bytes => _bytes;

    public int Filled { get; private set; }

    /// <summary>Room for the next read: the resting buffer when nothing is held; a full buffer is replaced by a larger one.</summary>
    public Memory<byte> Space()
    {
        if (_bytes.Length == 0)
        {
            _bytes = _resting;
        }

        if (Filled == _bytes.Length)
        {
            int size = _bytes == _resting ? InitialBytes : Math.Min(_bytes.Length * 2, Math.Max(maxBytes, _bytes.Length + 1));
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

    /// <summary>
    /// Nothing is pending (<see cref="Filled"/> is 0). After a read that filled all the room it had, more is likely
    /// waiting (a pipelining client): a borrowed buffer is kept, or borrowed now, so the next read takes a whole batch.
    /// Otherwise a borrowed buffer goes back, and the next read uses the resting one.
    /// </summary>
    public void Rest(bool moreWaiting)
    {
        Filled = 0;
        if (moreWaiting)
        {
            if (_bytes.Length <= RestingBytes)
            {
                _bytes = ArrayPool<byte>.Shared.Rent(InitialBytes);
            }

            return;
        }

        Give(_bytes);
        _bytes = _resting;
    }

    /// <summary>The connection is over: a borrowed buffer goes back.</summary>
    public void Release()
    {
        Give(_bytes);
        _bytes = [];
        Filled = 0;
    }

    private void Give(byte[] bytes)
    {
        if (bytes == _resting)
        {
            return;
        }

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
