namespace EventFilter.Daemon.Tests;

/// <summary>Connects the raw client to a daemon the tests started (DaemonProcess and DaemonFixture live in EventFilter.Testing, which knows no RESP).</summary>
public static class DaemonConnections
{
    public static RespClient Connect(this DaemonProcess daemon) => new(daemon.SocketPath);

    public static RespClient Connect(this DaemonFixture fixture) => fixture.Daemon.Connect();
}
