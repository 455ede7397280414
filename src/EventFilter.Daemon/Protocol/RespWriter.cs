using System.Buffers;
using System.Buffers.Text;
using System.Text;

namespace EventFilter.Daemon.Protocol;

/// <summary>
/// The replies of one connection, gathered in one growing buffer and sent once per read: a pipelined batch of commands
/// costs one send, and answers go out in order. Reused for the life of the connection. Speaks RESP2 until HELLO 3
/// switches it to RESP3, whose maps, booleans, nulls and verbatim strings the typed methods below write; in RESP2 they
/// fall back to what Redis sends there (a flat array, 1/0, a null bulk string, a bulk string). The buffer is borrowed
/// from the shared pool at the first reply and given back by <see cref="ReleaseBuffer"/>, so an idle connection holds none.
/// </summary>
internal sealed class RespWriter
{
    private static readonly byte[] Crlf = "\r\n"u8.ToArray();
    private const int InitialBytes = 16 * 1024;
    private byte[] _buffer = [];

    public int Length { get; private set; }

    /// <summary>2 (the default) or 3, as the last successful HELLO set it.</summary>
    public int ProtocolVersion { get; set; } = 2;

    private bool Resp3 => ProtocolVersion == 3;

    /// <summary>Bytes the buffer holds, used or not (CLIENT LIST's tot-mem).</summary>
    public int Capacity => _buffer.Length;

    public ReadOnlyMemory<byte> Written => _buffer.AsMemory(0, Length);

    /// <summary>After a send: nothing is pending, and the buffer a large reply grew is given up (<see cref="LargeBuffers"/>).</summary>
    public void Clear()
    {
        Length = 0;
        if (_buffer.Length > LargeBuffers.KeepBytes)
        {
            ReleaseBuffer();
        }
    }

    /// <summary>
    /// Nothing is pending and the connection waits for its client: the buffer goes back to the shared pool (a large one
    /// is dropped and counted instead, for <see cref="LargeBuffers"/>), and the next reply borrows one again.
    /// </summary>
    public void ReleaseBuffer()
    {
        Length = 0;
        if (_buffer.Length > LargeBuffers.KeepBytes)
        {
            LargeBuffers.Released(_buffer);
        }
        else if (_buffer.Length > 0)
        {
            ArrayPool<byte>.Shared.Return(_buffer);
        }

        _buffer = [];
    }

    public void SimpleString(ReadOnlySpan<byte> text) => Line((byte)'+', text);

    public void Ok() => SimpleString("OK"u8);

    /// <summary>An error reply; <paramref name="message"/> starts with its code (ERR, WRONGTYPE) and has no line breaks.</summary>
    public void Error(string message)
    {
        Span<byte> span = Reserve(message.Length * 3 + 3);
        span[0] = (byte)'-';
        int written = Encoding.UTF8.GetBytes(message.ReplaceLineEndings(" "), span[1..]);
        Crlf.CopyTo(span[(1 + written)..]);
        Length += written + 3;
    }

    public void Integer(long value) => Number((byte)':', value);

    public void ArrayHeader(long count) => Number((byte)'*', count);

    /// <summary>A map of <paramref name="pairs"/> key-value pairs; in RESP2 a flat array of twice as many elements.</summary>
    public void MapHeader(int pairs)
    {
        if (Resp3)
        {
            Number((byte)'%', pairs);
        }
        else
        {
            ArrayHeader(pairs * 2L);
        }
    }

    /// <summary>A set of <paramref name="count"/> elements: RESP3's set, RESP2's array.</summary>
    public void SetHeader(int count) => Number(Resp3 ? (byte)'~' : (byte)'*', count);

    /// <summary>A yes/no answer: #t/#f in RESP3, :1/:0 in RESP2 (as RedisBloom answers BF.ADD and BF.EXISTS).</summary>
    public void Boolean(bool value)
    {
        if (Resp3)
        {
            Raw(value ? "#t\r\n"u8 : "#f\r\n"u8);
        }
        else
        {
            Raw(value ? ":1\r\n"u8 : ":0\r\n"u8);
        }
    }

    /// <summary>No value: RESP3's null, RESP2's null bulk string.</summary>
    public void Null() => Raw(Resp3 ? "_\r\n"u8 : "$-1\r\n"u8);

    /// <summary>Text for people (INFO): RESP3's verbatim string of format "txt", RESP2's bulk string.</summary>
    public void VerbatimText(string value)
    {
        if (!Resp3)
        {
            Bulk(value);
            return;
        }

        int bytes = Encoding.UTF8.GetByteCount(value);
        Number((byte)'=', bytes + 4);
        Raw("txt:"u8);
        Length += Encoding.UTF8.GetBytes(value, Reserve(bytes));
        Raw(Crlf);
    }

    public void Bulk(ReadOnlySpan<byte> value)
    {
        Number((byte)'$', value.Length);
        Raw(value);
        Raw(Crlf);
    }

    public void Bulk(string value)
    {
        int bytes = Encoding.UTF8.GetByteCount(value);
        Number((byte)'$', bytes);
        Length += Encoding.UTF8.GetBytes(value, Reserve(bytes));
        Raw(Crlf);
    }

    private void Line(byte type, ReadOnlySpan<byte> text)
    {
        Span<byte> span = Reserve(text.Length + 3);
        span[0] = type;
        text.CopyTo(span[1..]);
        Crlf.CopyTo(span[(1 + text.Length)..]);
        Length += text.Length + 3;
    }

    private void Number(byte type, long value)
    {
        Span<byte> span = Reserve(24);
        span[0] = type;
        Utf8Formatter.TryFormat(value, span[1..], out int written);
        Crlf.CopyTo(span[(1 + written)..]);
        Length += written + 3;
    }

    private void Raw(ReadOnlySpan<byte> bytes)
    {
        bytes.CopyTo(Reserve(bytes.Length));
        Length += bytes.Length;
    }

    private Span<byte> Reserve(int bytes)
    {
        if (_buffer.Length - Length < bytes)
        {
            Grow(bytes);
        }

        return _buffer.AsSpan(Length);
    }

    private void Grow(int bytes)
    {
        int size = Math.Max(Math.Max(_buffer.Length * 2, InitialBytes), Length + bytes);
        byte[] larger = size <= LargeBuffers.KeepBytes ? ArrayPool<byte>.Shared.Rent(size) : new byte[size];
        _buffer.AsSpan(0, Length).CopyTo(larger);
        byte[] old = _buffer;
        _buffer = larger;
        if (old.Length > 0 && old.Length <= LargeBuffers.KeepBytes)
        {
            ArrayPool<byte>.Shared.Return(old);
        }
    }
}
