using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace EventFilter.Cli.Client;

/// <summary>
/// One connection to eventfilterd's Unix socket, speaking RESP2: each call sends one command (an array of bulk
/// strings) and reads its one reply. Every failure to reach the daemon or to read its answer becomes a
/// <see cref="DaemonUnreachableException"/> whose message says what to check; the whole command, connect included,
/// must finish within the timeout, so a stopped (SIGSTOP) or wedged daemon cannot hang the tool.
/// </summary>
internal sealed class DaemonConnection : IAsyncDisposable
{
    private readonly Socket _socket;
    private readonly NetworkStream _stream;
    private readonly RespReader _reader;
    private readonly CancellationTokenSource _deadline;
    private readonly CancellationToken _cancel;

    private DaemonConnection(string socketPath, Socket socket, CancellationTokenSource deadline, CancellationToken cancel)
    {
        _cancel = cancel;
        SocketPath = socketPath;
        _socket = socket;
        _stream = new NetworkStream(socket, ownsSocket: false);
        _reader = new RespReader(_stream);
        _deadline = deadline;
    }

    /// <summary>The socket as the operator gave it, for messages and reports.</summary>
    public string SocketPath { get; }

    /// <summary>The operator's wait, for the timeout message.</summary>
    public TimeSpan Timeout { get; private init; }

    /// <exception cref="DaemonUnreachableException">No socket there, nobody listening, no permission, or the timeout passed.</exception>
    public static async Task<DaemonConnection> OpenAsync(string socketPath, TimeSpan timeout, CancellationToken cancel)
    {
        string full = Path.GetFullPath(socketPath);
        if (!File.Exists(full))
        {
            throw new DaemonUnreachableException($"no socket at '{socketPath}': is eventfilterd running? (its socket is DATA/eventfilterd.sock unless it was started with --socket)");
        }

        var deadline = CancellationTokenSource.CreateLinkedTokenSource(cancel);
        deadline.CancelAfter(timeout);
        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(full), deadline.Token).ConfigureAwait(false);
            return new DaemonConnection(socketPath, socket, deadline, cancel) { Timeout = timeout };
        }
        catch (Exception failure) when (failure is SocketException or OperationCanceledException)
        {
            socket.Dispose();
            deadline.Dispose();
            throw Unreachable(socketPath, timeout, failure, cancel);
        }
    }

    /// <summary>
    /// Sends AUTH with the password in <paramref name="passwordFile"/>: its bytes without one trailing newline, as the
    /// daemon reads --requirepass-file. The password never appears in a message.
    /// </summary>
    /// <exception cref="ArgumentException">The file cannot be read, is empty or holds more than one line.</exception>
    /// <exception cref="DaemonErrorException">The daemon refused the password.</exception>
    public async Task AuthenticateAsync(string passwordFile)
    {
        byte[] bytes;
        try
        {
            bytes = await File.ReadAllBytesAsync(passwordFile, _deadline.Token).ConfigureAwait(false);
        }
        catch (Exception e) when (e is IOException or UnauthorizedAccessException or NotSupportedException)
        {
            throw new ArgumentException($"cannot read the password file '{passwordFile}': {e.Message}", e);
        }

        int length = bytes.Length;
        if (length > 0 && bytes[length - 1] == (byte)'\n')
        {
            length -= length > 1 && bytes[length - 2] == (byte)'\r' ? 2 : 1;
        }

        ReadOnlyMemory<byte> password = bytes.AsMemory(0, length);
        if (password.IsEmpty || password.Span.ContainsAny((byte)'\r', (byte)'\n'))
        {
            throw new ArgumentException($"the password file '{passwordFile}' must hold one non-empty line");
        }

        RespReply reply = await CallAsync([(ReadOnlyMemory<byte>)"AUTH"u8.ToArray(), password]).ConfigureAwait(false);
        System.Security.Cryptography.CryptographicOperations.ZeroMemory(bytes);
        if (reply.IsError)
        {
            // The daemon's own words (WRONGPASS, or that no password is set), which never repeat the password.
            throw new DaemonErrorException($"eventfilterd at '{SocketPath}' refused the password in '{passwordFile}': {reply.Text}");
        }
    }

    /// <summary>Sends one command and returns its reply, error replies included (the caller decides what they mean).</summary>
    public Task<RespReply> CallAsync(IReadOnlyList<string> arguments) =>
        CallAsync([.. arguments.Select(argument => (ReadOnlyMemory<byte>)Encoding.UTF8.GetBytes(argument))]);

    /// <summary>Sends one command of binary arguments (a dump chunk) and returns its reply, error replies included.</summary>
    public async Task<RespReply> CallAsync(IReadOnlyList<ReadOnlyMemory<byte>> arguments)
    {
        try
        {
            await _stream.WriteAsync(Encode(arguments), _deadline.Token).ConfigureAwait(false);
            return await _reader.ReadAsync(_deadline.Token).ConfigureAwait(false);
        }
        catch (Exception failure) when (failure is SocketException or IOException or OperationCanceledException)
        {
            throw Unreachable(SocketPath, Timeout, failure, _cancel);
        }
    }

    /// <summary>Sends one command and returns its reply; an error reply becomes a <see cref="DaemonErrorException"/>.</summary>
    public async Task<RespReply> CallExpectingSuccessAsync(IReadOnlyList<string> arguments)
    {
        RespReply reply = await CallAsync(arguments).ConfigureAwait(false);
        return reply.IsError ? throw Refused(arguments, reply.Text!) : reply;
    }

    /// <summary>The one-line refusal for an error reply to <paramref name="arguments"/>.</summary>
    public static DaemonErrorException Refused(IReadOnlyList<string> arguments, string error) =>
        new($"eventfilterd refused {arguments[0]}{(arguments.Count > 1 ? $" '{arguments[1]}'" : "")}: {error}");

    public async ValueTask DisposeAsync()
    {
        await _stream.DisposeAsync().ConfigureAwait(false);
        _socket.Dispose();
        _deadline.Dispose();
    }

    /// <summary>
    /// Gives the next call a whole --timeout again: a backup or restore is many calls, and the timeout bounds each one
    /// (a wedged daemon still stops the tool), not the whole transfer.
    /// </summary>
    public void RestartTimeout() => _deadline.CancelAfter(Timeout);

    private static byte[] Encode(IReadOnlyList<ReadOnlyMemory<byte>> arguments)
    {
        using var frame = new MemoryStream();
        frame.Write(Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"*{arguments.Count}\r\n")));
        foreach (ReadOnlyMemory<byte> argument in arguments)
        {
            frame.Write(Encoding.ASCII.GetBytes(string.Create(CultureInfo.InvariantCulture, $"${argument.Length}\r\n")));
            frame.Write(argument.Span);
            frame.Write("\r\n"u8);
        }

        return frame.ToArray();
    }

    private static DaemonUnreachableException Unreachable(string socketPath, TimeSpan timeout, Exception failure, CancellationToken caller)
    {
        string seconds = timeout.TotalSeconds.ToString("0.###", CultureInfo.InvariantCulture);
        string message = failure switch
        {
            OperationCanceledException when caller.IsCancellationRequested => $"cancelled while talking to eventfilterd at '{socketPath}'",
            OperationCanceledException => $"eventfilterd at '{socketPath}' did not answer within {seconds} s (--timeout)",
            SocketException { SocketErrorCode: SocketError.ConnectionRefused } => $"nothing is listening on '{socketPath}': eventfilterd is not running there (a killed daemon leaves its socket file behind)",
            SocketException { SocketErrorCode: SocketError.AccessDenied } => $"permission denied on '{socketPath}': the socket's mode (0660 by default) lets only the daemon's user and group connect",
            _ => $"lost the connection to eventfilterd at '{socketPath}': {failure.Message}",
        };
        return new DaemonUnreachableException(message, failure);
    }
}
