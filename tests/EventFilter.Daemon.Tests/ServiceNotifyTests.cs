using System.Net.Sockets;
using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// systemd's notify protocol, with a NOTIFY_SOCKET this test listens on: READY=1 only once the daemon's socket accepts
/// connections, WATCHDOG=1 while it serves, STOPPING=1 at SIGTERM, then a clean exit.
/// </summary>
public sealed class ServiceNotifyTests
{
    [Fact]
    public void Ready_comes_only_once_the_socket_accepts_then_watchdog_then_stopping()
    {
        using var directory = new TempDirectory();
        string data = Path.Combine(directory.Path, "data");

        // Filters to open, so that the start takes a while before the sockets bind.
        using (DaemonProcess first = DaemonProcess.Start(data, "--log-sync", "always"))
        using (RespClient client = first.Connect())
        {
            for (int i = 0; i < 50; i++)
            {
                client.Call("BF.MADD", $"f{i}", "a", "b", "c");
            }

            Assert.Equal(0, first.Stop());
        }

        using var notify = new Socket(AddressFamily.Unix, SocketType.Dgram, ProtocolType.Unspecified);
        string notifyPath = Path.Combine(directory.Path, "notify.sock");
        notify.Bind(new UnixDomainSocketEndPoint(notifyPath));
        notify.ReceiveTimeout = 60_000;
        var environment = new Dictionary<string, string> { ["NOTIFY_SOCKET"] = notifyPath, ["WATCHDOG_USEC"] = "200000" };
        using DaemonProcess daemon = DaemonProcess.Launch(environment, data, "--log-sync", "always");

        Assert.Equal("READY=1", Receive(notify, daemon));

        // At once, before anything else: the socket must take a connection the moment READY is heard.
        using (var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified))
        {
            probe.Connect(new UnixDomainSocketEndPoint(daemon.SocketPath));
        }

        using (RespClient client = daemon.Connect())
        {
            Assert.Equal("PONG", client.Call("PING"));
        }

        // Every half of WATCHDOG_USEC while it serves.
        Assert.Equal("WATCHDOG=1", Receive(notify, daemon));
        Assert.Equal("WATCHDOG=1", Receive(notify, daemon));

        daemon.Terminate();
        string state;
        while ((state = Receive(notify, daemon)) == "WATCHDOG=1")
        {
            // Keep-alives sent before the stop began.
        }

        Assert.Equal("STOPPING=1", state);
        Assert.Equal(0, daemon.WaitForExit(TimeSpan.FromSeconds(60)));
        Assert.False(File.Exists(daemon.SocketPath), "the socket file is removed at a clean stop");
    }

    private static string Receive(Socket notify, DaemonProcess daemon)
    {
        byte[] datagram = new byte[4096];
        try
        {
            return Encoding.ASCII.GetString(datagram, 0, notify.Receive(datagram)).Trim();
        }
        catch (SocketException e) when (e.SocketErrorCode == SocketError.TimedOut)
        {
            Assert.Fail($"no notification within a minute:\n{daemon.Output}");
            throw;
        }
    }
}
