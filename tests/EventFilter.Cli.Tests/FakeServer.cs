using System.Net.Sockets;

namespace EventFilter.Cli.Tests;

/// <summary>
/// A Unix-socket server that is not eventfilterd: it accepts connections and either answers every read with fixed
/// bytes or never answers, to test the client's handling of a wrong or wedged peer.
/// </summary>
public sealed class FakeServer : IDisposable
{
    private readonly Socket _listener;
    private readonly CancellationTokenSource _stop = new();
    private readonly Task _accepting;

    private FakeServer(string path, byte[]? reply)
    {
        Path = path;
        _listener = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
        _listener.Bind(new UnixDomainSocketEndPoint(path));
        _listener.Listen(8);
        _accepting = Task.Run(() => AcceptAsync(reply));
    }

    public string Path { get; }

    /// <summary>Listens on <paramref name="path"/>; <paramref name="reply"/> null means never answer.</summary>
    public static FakeServer Start(string path, byte[]? reply) => new(path, reply);

    public void Dispose()
    {
        _stop.Cancel();
        _listener.Dispose();
        try
        {
            _accepting.Wait(TimeSpan.FromSeconds(10));
        }
        catch (AggregateException)
        {
            // Stopped mid-accept: expected.
        }

        _stop.Dispose();
    }

    private async Task AcceptAsync(byte[]? reply)
    {
        var clients = new List<Socket>();
        try
        {
            while (true)
            {
                Socket client = await _listener.AcceptAsync(_stop.Token);
                clients.Add(client);
                byte[] request = new byte[4096];
                if (reply is not null && await client.ReceiveAsync(request, SocketFlags.None, _stop.Token) > 0)
                {
                    await client.SendAsync(reply, SocketFlags.None, _stop.Token);
                }
            }
        }
        catch (Exception e) when (e is OperationCanceledException or SocketException or ObjectDisposedException)
        {
            // Disposed.
        }
        finally
        {
            clients.ForEach(c => c.Dispose());
        }
    }
}
