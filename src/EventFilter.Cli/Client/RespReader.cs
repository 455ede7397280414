using System.Buffers.Text;
using System.Text;

namespace EventFilter.Cli.Client;

/// <summary>
/// Reads RESP2 replies from a stream, bounded so that a peer that is not eventfilterd (or a broken one) costs a
/// bounded amount of memory: see the limits below. Anything malformed is a <see cref="DaemonUnreachableException"/>.
/// </summary>
internal sealed class RespReader(Stream stream)
{
    /// <summary>Longest status, error or length line; eventfilterd's are far shorter.</summary>
    private const int MaxLine = 64 * 1024;

    /// <summary>Largest bulk string: the daemon's own limit on a key or an item is 1 MiB, INFO is a few hundred bytes.</summary>
    private const int MaxBulk = 64 << 20;

    /// <summary>Most elements in one array: a KEYS or SCAN reply of this many names is far beyond any real data directory.</summary>
    private const int MaxArray = 16 << 20;

    /// <summary>Arrays inside arrays: SCAN's reply is two deep.</summary>
    private const int MaxDepth = 4;

    private readonly byte[] _buffer = new byte[16 * 1024];
    private int _start;
    private int _end;

    public Task<RespReply> ReadAsync(CancellationToken cancel) => ReadAsync(0, cancel);

    private async Task<RespReply> ReadAsync(int depth, CancellationToken cancel)
    {
        byte type = await ReadByteAsync(cancel).ConfigureAwait(false);
        string line = await ReadLineAsync(cancel).ConfigureAwait(false);
        switch (type)
        {
            case (byte)'+':
                return new RespReply(RespKind.SimpleString, Text: line);
            case (byte)'-':
                return new RespReply(RespKind.Error, Text: line);
            case (byte)':':
                return new RespReply(RespKind.Integer, Integer: ParseLength(line, long.MinValue, long.MaxValue));
            case (byte)'$':
                long length = ParseLength(line, -1, MaxBulk);
                if (length < 0)
                {
                    return RespReply.Nil;
                }

                byte[] bytes = new byte[length];
                await ReadExactlyAsync(bytes, cancel).ConfigureAwait(false);
                byte[] crlf = new byte[2];
                await ReadExactlyAsync(crlf, cancel).ConfigureAwait(false);
                return crlf is [(byte)'\r', (byte)'\n'] ? new RespReply(RespKind.BulkString, Bytes: bytes) : throw Malformed("a bulk string not followed by CRLF");
            case (byte)'*':
                long count = ParseLength(line, -1, MaxArray);
                if (count < 0)
                {
                    return RespReply.Nil;
                }

                if (depth >= MaxDepth)
                {
                    throw Malformed($"arrays nested deeper than {MaxDepth}");
                }

                var items = new RespReply[count];
                for (int i = 0; i < count; i++)
                {
                    items[i] = await ReadAsync(depth + 1, cancel).ConfigureAwait(false);
                }

                return new RespReply(RespKind.Array, Items: items);
            default:
                throw Malformed($"a reply starting with byte 0x{type:x2}");
        }
    }

    private static long ParseLength(string line, long min, long max) =>
        Utf8Parser.TryParse(Encoding.ASCII.GetBytes(line), out long value, out int used) && used == line.Length && value >= min && value <= max
            ? value
            : throw Malformed($"the number '{line}'");

    private static DaemonUnreachableException Malformed(string what) => new($"the daemon sent {what}, which is not RESP as eventfilterd speaks it: is the socket really eventfilterd's?");

    private async Task<string> ReadLineAsync(CancellationToken cancel)
    {
        var line = new StringBuilder();
        while (true)
        {
            byte b = await ReadByteAsync(cancel).ConfigureAwait(false);
            if (b == (byte)'\r')
            {
                return await ReadByteAsync(cancel).ConfigureAwait(false) == (byte)'\n' ? line.ToString() : throw Malformed("a CR without LF");
            }

            if (line.Length >= MaxLine)
            {
                throw Malformed($"a line longer than {MaxLine} bytes");
            }

            line.Append((char)b);
        }
    }

    private async Task ReadExactlyAsync(byte[] target, CancellationToken cancel)
    {
        int filled = 0;
        while (filled < target.Length)
        {
            if (_start == _end)
            {
                await FillAsync(cancel).ConfigureAwait(false);
            }

            int take = Math.Min(target.Length - filled, _end - _start);
            _buffer.AsSpan(_start, take).CopyTo(target.AsSpan(filled));
            _start += take;
            filled += take;
        }
    }

    private async ValueTask<byte> ReadByteAsync(CancellationToken cancel)
    {
        if (_start == _end)
        {
            await FillAsync(cancel).ConfigureAwait(false);
        }

        return _buffer[_start++];
    }

    private async Task FillAsync(CancellationToken cancel)
    {
        _start = 0;
        _end = await stream.ReadAsync(_buffer, cancel).ConfigureAwait(false);
        if (_end == 0)
        {
            throw new DaemonUnreachableException("the daemon closed the connection before it finished its reply");
        }
    }
}
