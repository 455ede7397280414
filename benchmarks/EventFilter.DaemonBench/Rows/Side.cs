using EventFilter.DaemonBench.Client;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>One running server of a mode and the measuring thread's connection to it, with a filter named "bench" made for the rows.</summary>
internal sealed class Side : IDisposable
{
    public const string Key = "bench";

    private Side(ServerProcess server)
    {
        Server = server;
        Connection = server.Connect();
        Connection.Call(Dialect.Create(Key, 1_000_000));
    }

    public ServerProcess Server { get; }

    public RespConnection Connection { get; }

    public Dialect Dialect => Server.Spec.Dialect;

    public string Name => Server.Spec.Name;

    public static Side Start(ServerSpec spec, string dataDirectory, bool pinned) => new(ServerProcess.Start(spec, dataDirectory, pinned));

    public void Dispose()
    {
        Connection.Dispose();
        Server.Dispose();
    }
}
