using System.Net.Sockets;
using EventFilter.Daemon.Telemetry;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Whether the daemon really serves, for the watchdog: it is listening, and a PING over its own Unix socket is answered
/// within the time given. Any reply counts, -NOAUTH (a password is set) and -ERR max number of clients reached (all
/// slots busy) included: each proves that the accept loop and the command path run. One connection per keep-alive,
/// which INFO's total_connections_received counts.
/// </summary>
internal sealed class ServingProbe(DaemonOptions options, DaemonHealth health)
{
    public async Task<bool> ServesAsync(TimeSpan timeout, CancellationToken stopping)
    {
        if (!health.Listening)
        {
            return false;
        }

        using var deadline = CancellationTokenSource.CreateLinkedTokenSource(stopping);
        deadline.CancelAfter(timeout);
        using var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        try
        {
            await socket.ConnectAsync(new UnixDomainSocketEndPoint(options.SocketPathOrDefault), deadline.Token);
            await socket.SendAsync("*1\r\n$4\r\nPING\r\n"u8.ToArray(), deadline.Token);
            byte[] reply = new byte[128];
            int filled = 0;
            while (filled < reply.Length)
            {
                int read = await socket.ReceiveAsync(reply.AsMemory(filled), deadline.Token);
                if (read == 0)
                {
                    return false;
                }

                filled += read;
                if (reply[filled - 1] == (byte)'\n')
                {
                    return reply[0] is (byte)'+' or (byte)'-';
                }
            }

            return false;
        }
        catch (Exception e) when (e is SocketException or OperationCanceledException or ObjectDisposedException)
        {
            return false;
        }
    }
}
