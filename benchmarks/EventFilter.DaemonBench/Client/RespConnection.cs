using System.Net.Sockets;
using System.Text;

namespace EventFilter.DaemonBench.Client;

/// <summary>
/// A raw RESP client over a blocking Unix socket: sends pre-encoded commands and skips over their replies. Nothing in
/// <see cref="Send"/> or <see cref="Receive"/> allocates (an error reply excepted), so the loops measure the server.
/// </summary>
internal sealed class RespConnection : IDisposable
{
    private readonly Socket _socket;
    private byte[] _buffer = new byte[64 * 1024];
    private int _start;
    private int _end;

    private RespConnection(Socket socket) => _socket = socket;

    public static RespConnection Connect(string socketPath)
    {
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            socket.Connect(new UnixDomainSocketEndPoint(socketPath));
            return new RespConnection(socket);
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    public void Send(ReadOnlySpan<byte> commands)
    {
        while (!commands.IsEmpty)
        {
            commands = commands[_socket.Send(commands, SocketFlags.None)..];
        }
    }

    /// <summary>Reads until <paramref name="replies"/> whole replies have arrived.</summary>
    /// <exception cref="InvalidOperationException">A reply was an error, or the server closed the connection.</exception>
    public void Receive(int replies)
    {
        while (replies > 0)
        {
            int length = _end > _start ? RespReply.Measure(_buffer.AsSpan(_start, _end - _start)) : -1;
            if (length >= 0)
            {
                if (_buffer[_start] == (byte)'-')
                {
                    throw new InvalidOperationException("server error: " + Encoding.ASCII.GetString(_buffer, _start + 1, length - 3));
                }

                _start += length;
                replies--;
                continue;
            }

            Fill();
        }
    }

    /// <summary>Sends one command and waits for its reply: one round trip.</summary>
    public void Call(ReadOnlySpan<byte> command)
    {
        Send(command);
        Receive(1);
    }

    /// <summary>The first line of the next reply, for probes (allocates; never on a timed path).</summary>
    public string ReadLine()
    {
        int lineEnd;
        while ((lineEnd = _buffer.AsSpan(_start, _end - _start).IndexOf("\r\n"u8)) < 0)
        {
            Fill();
        }

        string line = Encoding.ASCII.GetString(_buffer, _start, lineEnd);
        _start = _end = 0;
        return line;
    }

    public void Dispose() => _socket.Dispose();

    private void Fill()
    {
        MakeRoom();
        int read = _socket.Receive(_buffer.AsSpan(_end), SocketFlags.None);
        _end += read > 0 ? read : throw new InvalidOperationException("the server closed the connection");
    }

    private void MakeRoom()
    {
        if (_start == _end)
        {
            _start = _end = 0;
        }
        else if (_end == _buffer.Length)
        {
            // A partial reply at the end: move it to the front, and grow only if it fills the whole buffer.
            int pending = _end - _start;
            byte[] target = pending == _buffer.Length ? new byte[_buffer.Length * 2] : _buffer;
            Buffer.BlockCopy(_buffer, _start, target, 0, pending);
            _buffer = target;
            _start = 0;
            _end = pending;
        }
    }
}
