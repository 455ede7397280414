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
/// Accepts clients on the Unix socket (and on TCP with --port, on --bind's address) and serves each on a thread of its
/// own (<see cref="ConnectionThreads"/>). The sockets are bound and listening when <see cref="StartAsync"/> returns, so
/// the host's "started", which the service manager hears as READY=1 (<see cref="ServiceManager"/>), comes only once
/// clients can connect; BackgroundService runs ExecuteAsync apart from the start. Each listening socket has a thread
/// blocked in accept, which the kernel wakes directly: an async accept would add a hop through the socket engine and
/// the thread pool to every connect.
/// </summary>
internal sealed class RespListener(DaemonOptions options, FilterStore store, DaemonMetrics metrics, DaemonHealth health, TimeProvider time, ILogger logger) : BackgroundService
{
    private readonly RespLimits _limits = new();
    private readonly ConnectedClients _clients = new();
    private readonly List<Socket> _sockets = [];
    private ConnectionThreads? _threads;

    /// <summary>Set once our bind made the socket file: never remove a file another server listens on.</summary>
    private bool _ownsSocketFile;

    /// <exception cref="IOException">Another server listens on the socket.</exception>
    /// <exception cref="SocketException">The socket or the TCP port cannot be bound.</exception>
    public override Task StartAsync(CancellationToken cancellationToken)
    {
        try
        {
            _sockets.Add(UnixSocket.Bind(options.SocketPathOrDefault, options.SocketMode));
            _ownsSocketFile = true;
            if (options.Port is { } port)
            {
                var tcp = new Socket(options.BindAddress.AddressFamily, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
                _sockets.Add(tcp);
                tcp.Bind(new IPEndPoint(options.BindAddress, port));
                tcp.Listen(512);
            }
        }
        catch
        {
            _sockets.ForEach(s => s.Dispose());
            throw;
        }

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
        // A connection leaves the set on its own thread as it ends: no hop through the thread pool per disconnect.
        _threads = new ConnectionThreads(Forget);
        try
        {
            Task[] accepting = [.. _sockets.Select(s => Accept(s, stoppingToken))];

            // Closing a listening socket wakes its blocked accept, which then ends its thread.
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

    private Task Accept(Socket listener, CancellationToken stopping)
    {
        var ended = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        new Thread(() =>
        {
            try
            {
                while (true)
                {
                    Serve(listener.Accept());
                }
            }
            catch (Exception e) when (stopping.IsCancellationRequested && e is SocketException or ObjectDisposedException)
            {
                ended.SetResult();
            }
            catch (Exception e)
            {
                // Not stopping: the listener failed, and so does the service (the host then stops, as for any failed start).
                ended.SetException(e);
            }
        })
        { IsBackground = true, Name = "eventfilterd accept" }.Start();
        return ended.Task;
    }

    private void Serve(Socket client)
    {
        if (_clients.TryAdd(() => Connection(client), options.MaxClients) is not { } connection)
        {
            Refuse(client);
            return;
        }

        if (connection.Begin())
        {
            _threads!.Serve(connection);
        }
        else
        {
            Forget(connection);
        }
    }

    private ClientConnection Connection(Socket client)
    {
        bool unix = client.AddressFamily == AddressFamily.Unix;
        string address = unix ? options.SocketPathOrDefault + ":0" : client.RemoteEndPoint?.ToString() ?? "?";
        var facts = new ConnectedClient(address, unix ? address : client.LocalEndPoint?.ToString() ?? "?", unix, time);
        return new ClientConnection(client, new CommandContext(store, options, health, metrics, facts, _clients) { Logger = logger }, _limits, metrics, logger);
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
