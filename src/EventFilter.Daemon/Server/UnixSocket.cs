using System.Net.Sockets;

namespace EventFilter.Daemon.Server;

/// <summary>Binding the Unix-domain socket: a stale file from a killed daemon is replaced; a live one is refused.</summary>
internal static class UnixSocket
{
    /// <summary>Binds the socket with its mode set; the caller listens.</summary>
    public static Socket Bind(string path, UnixFileMode mode)
    {
        string full = Path.GetFullPath(path);
        if (File.Exists(full))
        {
            // The data-directory lock keeps a second daemon off our data, but the socket may live elsewhere:
            // only a file nobody answers on is stale.
            if (IsLive(full))
            {
                throw new IOException($"another server is listening on the socket '{full}'");
            }

            File.Delete(full);
        }

        var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            socket.Bind(new UnixDomainSocketEndPoint(full));

            // Before Listen: no client can connect through a mode wider than the one asked for.
            if (!OperatingSystem.IsWindows())
            {
                File.SetUnixFileMode(full, mode);
            }

            return socket;
        }
        catch
        {
            socket.Dispose();
            throw;
        }
    }

    /// <summary>True when a server accepts connections on the socket file at <paramref name="path"/>.</summary>
    public static bool IsLive(string path)
    {
        using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            probe.Connect(new UnixDomainSocketEndPoint(path));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}
