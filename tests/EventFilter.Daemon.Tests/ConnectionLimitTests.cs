using System.Net.Sockets;
using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>--max-clients: one connection more than the limit gets Redis's error and is closed; the open ones are untouched.</summary>
public sealed class ConnectionLimitTests
{
    [Fact]
    public void A_connection_beyond_max_clients_gets_the_redis_error_and_is_closed()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--max-clients", "2");
        using RespClient first = daemon.Connect();
        Assert.Equal("PONG", first.Call("PING"));

        // The start-up probe's connection may not have been let go yet: the second client is in once it is served.
        using RespClient second = Poll.Until(() => Served(daemon), "a second connection to be served");

        Assert.Equal("-ERR max number of clients reached\r\n", RefusedReply(daemon));
        Assert.Equal("PONG", first.Call("PING"));
        Assert.Equal("PONG", second.Call("PING"));

        first.Dispose();
        using RespClient third = Poll.Until(() => Served(daemon), "a place to free up once a client left");
        Assert.Equal("PONG", third.Call("PING"));
    }

    /// <summary>A client whose PING was answered, or null when the daemon refused it.</summary>
    private static RespClient? Served(DaemonProcess daemon)
    {
        var client = daemon.Connect();
        try
        {
            if (Equals(client.Call("PING"), "PONG"))
            {
                return client;
            }
        }
        catch (Exception e) when (e is IOException or SocketException)
        {
            // Refused and closed before the PING went out.
        }

        client.Dispose();
        return null;
    }

    /// <summary>Everything a connection receives before the daemon closes it, sending nothing.</summary>
    private static string RefusedReply(DaemonProcess daemon)
    {
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified) { ReceiveTimeout = 30_000 };
        socket.Connect(new UnixDomainSocketEndPoint(daemon.SocketPath));
        var received = new MemoryStream();
        byte[] buffer = new byte[256];
        for (int read; (read = socket.Receive(buffer)) > 0;)
        {
            received.Write(buffer, 0, read);
        }

        return Encoding.ASCII.GetString(received.ToArray());
    }
}
