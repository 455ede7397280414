using System.Net;
using System.Net.Sockets;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Accepts clients on the Unix socket (and on TCP with --port, on --bind's address), each listening socket in an
/// <see cref="AcceptLoop"/>, and serves every client on one of a few event loops (<see cref="EventLoop"/>,
/// <see cref="ClientConnection"/>): no thread is held per connection. The sockets are bound and listening when <see cref="StartAsync"/> returns, so the
/// host's "started", which the service manager hears as READY=1 (<see cref="ServiceManager"/>), comes only once clients
/// can connect; BackgroundService runs ExecuteAsync apart from the start. See docs/daemon-design.md, "Connections".
/// </summary>
internal sealed class RespListener(DaemonOptions options, FilterStore store, DaemonMetrics metrics, DaemonHealth health, TimeProvider time, ILogger logger) : BackgroundService
{
    private readonly RespLimits _limits = new();
    private readonly ConnectedClients _clients = new();
    private readonly DescriptorLimitWarning _descriptorLimitWarning = new(time);
    private readonly List<Socket> _sockets = [];
    // Every Unix client's address in CLIENT LIST, as Redis shows it: one string for them all.
    private readonly string _unixAddress = options.SocketPathOrDefault + ":0";
    // The group commit of --log-sync always; null in periodic mode, where a batch waits for no fsync.
    private LogSyncQueue? _logSync;
    // The connections' event loops, each client given to the next in turn; made when serving starts.
    private EventLoop[] _loops = [];
    private int _nextLoop;

    /// <summary>Set once our bind made the socket file: never remove a file another server listens on.</summary>
    private bool _ownsSocketFile;

    /// <summary>
    /// Null when --port's address is free to bind; else why not. Checked at start before the data directory is touched,
    /// so that a port in use ends the start in one line without opening the filters: a bind the same way as
    /// <see cref="Bind"/>, at once released. Another process may still take the port in between; Bind then fails with exit 4.
    /// </summary>
    public static string? TcpRefusal(DaemonOptions options)
    {
        if (options.Port is not { } port)
        {
            return null;
        }

        using var probe = new Socket(options.BindAddress.AddressFamily, SocketType.Stream, ProtocolType.Tcp);
        try
        {
            probe.Bind(new IPEndPoint(options.BindAddress, port));
            return null;
        }
        catch (SocketException e)
        {
            return $"cannot listen on {options.BindAddress}:{port.ToString(System.Globalization.CultureInfo.InvariantCulture)}: {e.Message}";
        }
    }

    /// <summary>
    /// Binds every socket, once. Program calls it before the host starts, so that a port in use is one line and exit
    /// code 4, not the host's "startup faulted" entry with a stack trace; StartAsync binds if it did not, then listens.
    /// Not listening yet: a client that could connect before the host handles SIGTERM could stop it uncleanly.
    /// </summary>
    /// <exception cref="IOException">Another server listens on the socket.</exception>
    /// <exception cref="SocketException">The socket or the TCP port cannot be bound.</exception>
    public void Bind()
    {
        if (_sockets.Count > 0)
        {
            return;
        }

        SocketEngine.PreferInlineCompletions();
        try
        {
            _sockets.Add(UnixSocket.Bind(options.SocketPathOrDefault, options.SocketMode));
            _ownsSocketFile = true;
            if (options.Port is { } port)
            {
                var tcp = new Socket(options.BindAddress.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                _sockets.Add(tcp);
                tcp.Bind(new IPEndPoint(options.BindAddress, port));
            }
        }
        catch
        {
            _sockets.ForEach(s => s.Dispose());
            _sockets.Clear();
            if (_ownsSocketFile)
            {
                File.Delete(options.SocketPathOrDefault);
                _ownsSocketFile = false;
            }

            throw;
        }
    }

    /// <inheritdoc cref="Bind"/>
    /// <exception cref="SocketException">A socket cannot listen.</exception>
    public override Task StartAsync(CancellationToken cancellationToken)
    {
        Bind();
        _sockets.ForEach(s => s.Listen(512));
        string tcpText = options.Port is { } p ? $" and tcp:{new IPEndPoint(options.BindAddress, p)}" : "";
        Log.Listening(logger, options.SocketPathOrDefault, tcpText, options.DataDirectory, options.LogSync.ToString().ToLowerInvariant(), options.Password is null ? "none" : "password");
        health.SetListening(true);
        return base.StartAsync(cancellationToken);
    }

    /// <summary>
    /// Closes the listeners here too: a stop that comes before the thread pool has run ExecuteAsync cancels it unrun,
    /// and the sockets bound in StartAsync, with the socket file, must go all the same.
    /// </summary>
    public override async Task StopAsync(CancellationToken cancellationToken)
    {
        try
        {
            await base.StopAsync(cancellationToken);
        }
        finally
        {
            CloseListeners();
        }
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        _logSync = options.LogSync == LogSync.Always ? new LogSyncQueue() : null;
        _loops = [.. Enumerable.Range(0, EventLoop.DefaultCount).Select(i => new EventLoop(i, logger))];
        try
        {
            Task[] accepting = [.. _sockets.Select(s => new AcceptLoop(s, metrics, time, logger).Run(Serve, stoppingToken))];

            // Closing a listening socket ends its pending accept.
            using (stoppingToken.Register(() => _sockets.ForEach(s => s.Dispose())))
            {
                await Task.WhenAll(accepting);
            }
        }
        finally
        {
            CloseListeners();
            ClientConnection[] clients = _clients.Snapshot();

            foreach (ClientConnection client in clients)
            {
                client.Abort();
            }

            await Task.WhenAll(clients.Select(c => c.Finished));
            foreach (EventLoop loop in _loops)
            {
                loop.Dispose();
            }

            // After the connections: a batch still waiting for its fsync gets it before the queue's thread ends.
            _logSync?.Dispose();
        }
    }

    /// <summary>Stops listening and removes the socket file; idempotent (from ExecuteAsync's end and from StopAsync).</summary>
    private void CloseListeners()
    {
        health.SetListening(false);
        foreach (Socket socket in _sockets)
        {
            socket.Dispose();
        }

        if (_ownsSocketFile)
        {
            File.Delete(options.SocketPathOrDefault);
        }
    }

    private void Serve(Socket client)
    {
        if (_clients.TryAdd(() => Connection(client), options.MaxClients) is not { } connection)
        {
            Refuse(client);
            return;
        }

        connection.Start(_loops[(int)((uint)Interlocked.Increment(ref _nextLoop) % (uint)_loops.Length)], Forget);
    }

    private ClientConnection Connection(Socket client)
    {
        bool unix = client.AddressFamily == AddressFamily.Unix;
        string address = unix ? _unixAddress : client.RemoteEndPoint?.ToString() ?? "?";
        var facts = new ConnectedClient(address, unix ? address : client.LocalEndPoint?.ToString() ?? "?", unix, time);
        return new ClientConnection(client, new CommandContext(store, options, health, metrics, facts, _clients) { Logger = logger, DescriptorLimitWarning = _descriptorLimitWarning }, _limits, metrics, _logSync, logger);
    }

    /// <summary>One connection too many: Redis's answer, then close (the reply fits any empty socket buffer, so the send cannot block).</summary>
    private void Refuse(Socket client)
    {
        metrics.Refused();
        try
        {
            client.Send("-ERR max number of clients reached\r\n"u8);
        }
        catch (SocketException)
        {
            // The client left already.
        }
        finally
        {
            client.Dispose();
        }
    }

    private void Forget(ClientConnection connection) => _clients.Remove(connection);
}
