using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Out of descriptors, the daemon keeps listening and says why: each new client is accepted on the accept loop's
/// reserve descriptor, answered "-ERR max number of file descriptors reached" and closed, the condition is logged once,
/// health is degraded, and clients are served again once descriptors are free. Before, the accept thread died with the
/// error and the daemon silently stopped listening; then, clients waited in the backlog with no answer.
/// </summary>
public sealed class AcceptLimitTests
{
    [Fact]
    public void Out_of_descriptors_the_daemon_refuses_clients_with_an_error_logs_it_once_and_keeps_listening()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        using RespClient first = daemon.Connect();
        Assert.Equal("PONG", first.Call("PING"));

        // No descriptor beyond the highest one open now: the free numbers below it go to clients first, then accepts fail.
        int highest = Directory.GetFiles($"/proc/{daemon.Id}/fd").Max(f => int.Parse(Path.GetFileName(f), CultureInfo.InvariantCulture));
        LimitDescriptors(daemon.Id, highest + 1);

        var clients = new List<Socket>();
        try
        {
            string reply;
            while ((reply = PingNewClient(daemon, clients)) == "+PONG\r\n")
            {
                Assert.True(clients.Count < 1000, "no accept failed for lack of descriptors");
            }

            Assert.StartsWith("-ERR max number of file descriptors reached", reply, StringComparison.Ordinal);
            for (int i = 0; i < 3; i++)
            {
                Assert.StartsWith("-ERR max number of file descriptors reached", PingNewClient(daemon, clients), StringComparison.Ordinal);
            }

            Assert.False(daemon.HasExited);
            Assert.True(File.Exists(daemon.SocketPath));

            LimitDescriptors(daemon.Id, 4096);
            Assert.Equal("+PONG\r\n", PingNewClient(daemon, clients));
            Poll.Until(() => daemon.Output.Contains("Accepting connections again", StringComparison.Ordinal), "the resumed accept to be logged");
            Assert.Equal(1, Occurrences(daemon.Output, "Out of file descriptors")); // logged before the resumption, once
            string info = Encoding.UTF8.GetString((byte[])first.Call("INFO", "eventfilterd")!);
            Assert.Contains("health:degraded", info, StringComparison.Ordinal);
            Assert.Contains("accept failed", info, StringComparison.Ordinal);
        }
        finally
        {
            clients.ForEach(c => c.Dispose());
        }
    }

    /// <summary>Connects one more client, kept open, and sends PING; returns the daemon's first reply.</summary>
    private static string PingNewClient(DaemonProcess daemon, List<Socket> clients)
    {
        var client = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified) { ReceiveTimeout = 60_000 };
        clients.Add(client);
        client.Connect(new UnixDomainSocketEndPoint(daemon.SocketPath));
        client.Send("*1\r\n$4\r\nPING\r\n"u8);
        byte[] buffer = new byte[256];
        int read = client.Receive(buffer);
        return Encoding.ASCII.GetString(buffer, 0, read);
    }

    private static int Occurrences(string text, string what) => (text.Length - text.Replace(what, "", StringComparison.Ordinal).Length) / what.Length;

    /// <summary>Sets the running daemon's RLIMIT_NOFILE (util-linux's prlimit).</summary>
    private static void LimitDescriptors(int pid, int limit)
    {
        using Process process = Process.Start("prlimit", ["--pid", pid.ToString(CultureInfo.InvariantCulture), $"--nofile={limit}:"])!;
        process.WaitForExit();
        Assert.Equal(0, process.ExitCode);
    }
}
