using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A small raw RESP client over the daemon's Unix socket. Replies decode to: string (simple), <see cref="RespError"/>,
/// long, byte[] (bulk), null (RESP2's null bulk and array), object?[] (array); and RESP3's, after HELLO 3:
/// <see cref="RespNull"/>, bool, <see cref="RespMap"/> and <see cref="RespVerbatim"/>, each a type of its own so that a
/// test can tell which protocol the daemon answered in. Raw sends let tests pipeline and send malformed frames.
/// </summary>
public sealed class RespClient : IDisposable
{
    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly BufferedStream _reader;

    public RespClient(string socketPath)
        : this(new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified), new UnixDomainSocketEndPoint(socketPath))
    {
    }

    private RespClient(Socket socket, System.Net.EndPoint endPoint)
    {
        _socket = socket;
        _socket.Connect(endPoint);
        // A hang detector, not a wait: Poll.Bound, far beyond what a loaded 2-core machine needs (30 s once failed a test there).
        _socket.ReceiveTimeout = (int)Poll.Bound.TotalMilliseconds;
        _stream = new NetworkStream(_socket);
        _reader = new BufferedStream(_stream);
    }

    /// <summary>
    /// How long one read waits for the daemon: <see cref="Poll.Bound"/> unless set. <see cref="Timeout.InfiniteTimeSpan"/> for no limit,
    /// where the test bounds the whole exchange itself (with <see cref="Poll"/>) and disposes the client at the end.
    /// </summary>
    public TimeSpan ReceiveTimeout
    {
        get => _socket.ReceiveTimeout == 0 ? Timeout.InfiniteTimeSpan : TimeSpan.FromMilliseconds(_socket.ReceiveTimeout);
        set => _socket.ReceiveTimeout = value == Timeout.InfiniteTimeSpan ? 0 : (int)value.TotalMilliseconds;
    }

    /// <summary>Connects over TCP (--port, --bind).</summary>
    public static RespClient ConnectTcp(System.Net.IPEndPoint endPoint) =>
        new(new Socket(endPoint.AddressFamily, SocketType.Stream, ProtocolType.Tcp), endPoint);

    public static byte[] Encode(params object[] arguments)
    {
        var frame = new MemoryStream();
        frame.Write(Encoding.ASCII.GetBytes($"*{arguments.Length}\r\n"));
        foreach (object argument in arguments)
        {
            byte[] bytes = argument as byte[] ?? Encoding.UTF8.GetBytes(Convert.ToString(argument, CultureInfo.InvariantCulture)!);
            frame.Write(Encoding.ASCII.GetBytes($"${bytes.Length}\r\n"));
            frame.Write(bytes);
            frame.Write("\r\n"u8);
        }

        return frame.ToArray();
    }

    public object? Call(params object[] arguments)
    {
        SendRaw(Encode(arguments));
        return Read();
    }

    public void SendRaw(byte[] bytes) => _stream.Write(bytes);

    /// <summary>No more requests: the daemon sees end of input.</summary>
    public void ShutdownSend() => _socket.Shutdown(SocketShutdown.Send);

    /// <summary>True when the daemon closed the connection (end of stream with nothing pending).</summary>
    public bool IsClosedByServer()
    {
        try
        {
            return _reader.ReadByte() < 0;
        }
        catch (IOException e) when (e.InnerException is SocketException { SocketErrorCode: SocketError.ConnectionReset })
        {
            // Closing with our bytes still unread makes the kernel reset the connection: closed all the same.
            return true;
        }
    }

    public object? Read()
    {
        int type = _reader.ReadByte();
        string line = ReadLine();
        switch (type)
        {
            case '+': return line;
            case '-': return new RespError(line);
            case ':': return long.Parse(line, CultureInfo.InvariantCulture);
            case '$':
                int length = int.Parse(line, CultureInfo.InvariantCulture);
                if (length < 0)
                {
                    return null;
                }

                byte[] bulk = new byte[length + 2];
                _reader.ReadExactly(bulk);
                return bulk[..length];
            case '*':
                int count = int.Parse(line, CultureInfo.InvariantCulture);
                return count < 0 ? null : Enumerable.Range(0, count).Select(_ => Read()).ToArray();
            case '~':
                int members = int.Parse(line, CultureInfo.InvariantCulture);
                return new RespSet([.. Enumerable.Range(0, members).Select(_ => Read())]);
            case '_': return RespNull.Value;
            case '#': return line == "t";
            case '%':
                int pairs = int.Parse(line, CultureInfo.InvariantCulture);
                return new RespMap([.. Enumerable.Range(0, pairs).Select(_ => KeyValuePair.Create(Read(), Read()))]);
            case '=':
                byte[] verbatim = new byte[int.Parse(line, CultureInfo.InvariantCulture) + 2];
                _reader.ReadExactly(verbatim);
                return new RespVerbatim(Encoding.ASCII.GetString(verbatim, 0, 3), Encoding.UTF8.GetString(verbatim, 4, verbatim.Length - 6));
            case -1: throw new EndOfStreamException("the daemon closed the connection");
            default: throw new InvalidDataException($"unexpected reply type '{(char)type}'");
        }
    }

    private string ReadLine()
    {
        var line = new StringBuilder();
        int b;
        while ((b = _reader.ReadByte()) != '\r')
        {
            if (b < 0)
            {
                throw new EndOfStreamException("the daemon closed the connection mid-reply");
            }

            line.Append((char)b);
        }

        _ = _reader.ReadByte();
        return line.ToString();
    }

    public void Dispose()
    {
        _reader.Dispose();
        _socket.Dispose();
    }
}
