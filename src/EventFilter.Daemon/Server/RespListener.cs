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
/// Accepts clients on the Unix socket (and on loopback TCP with --port) and runs each on its own thread. Started after
/// the filters are open, so the socket file appearing means the daemon is ready.
/// </summary>
internal sealed class RespListener(DaemonOptions options, FilterStore store, DaemonMetrics metrics, DaemonHealth health, ILogger<RespListener> logger) : BackgroundService
{
    private readonly RespLimits _limits = new();
    private readonly HashSet<ClientConnection> _clients = [];

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        var sockets = new List<Socket> { UnixSocket.Bind(options.SocketPathOrDefault, options.SocketMode) };
        if (options.Port is { } port)
        {
            var tcp = new Socket(AddressFamily.InterNetwork, SocketType.Stream, ProtocolType.Tcp) { NoDelay = true };
            tcp.Bind(new IPEndPoint(IPAddress.Loopback, port));
            tcp.Listen(512);
            sockets.Add(tcp);
        }

        Log.Listening(logger, options.SocketPathOrDefault, options.Port is { } p ? $" and tcp:127.0.0.1:{p}" : "", options.DataDirectory, options.LogSync.ToString().ToLowerInvariant());
        health.SetListening(true);
        try
        {
            await Task.WhenAll(sockets.Select(s => AcceptAsync(s, stoppingToken)));
        }
        finally
        {
            health.SetListening(false);
            foreach (Socket socket in sockets)
            {
                socket.Dispose();
            }

            File.Delete(options.SocketPathOrDefault);
            ClientConnection[] clients;
            lock (_clients)
            {
                clients = [.. _clients];
            }

            foreach (ClientConnection client in clients)
            {
                client.Abort();
            }

            await Task.WhenAll(clients.Select(c => c.Finished));
        }
    }

    private async Task AcceptAsync(Socket listener, CancellationToken stopping)
    {
        while (!stopping.IsCancellationRequested)
        {
            Socket client;
            try
            {
                client = await listener.AcceptAsync(stopping);
            }
            catch (OperationCanceledException)
            {
                return;
            }

            var connection = new ClientConnection(client, new CommandContext(store, options), _limits, metrics, logger);
            lock (_clients)
            {
                _clients.Add(connection);
            }

            _ = connection.Finished.ContinueWith(_ => Forget(connection), CancellationToken.None, TaskContinuationOptions.ExecuteSynchronously, TaskScheduler.Default);
            connection.Start();
        }
    }

    private void Forget(ClientConnection connection)
    {
        lock (_clients)
        {
            _clients.Remove(connection);
        }
    }
}
