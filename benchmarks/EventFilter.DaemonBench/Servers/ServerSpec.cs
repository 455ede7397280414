namespace EventFilter.DaemonBench.Servers;

/// <summary>
/// One side of the table: how to start the server on a data directory and socket, what it speaks, and whether it
/// keeps its data across a restart (a server that does not has no restart startup row).
/// </summary>
internal sealed record ServerSpec(string Name, string Description, Dialect Dialect, bool KeepsData, Func<string, string, (string File, string[] Arguments)> CommandLine)
{
    /// <summary>eventfilterd: the NativeAOT binary when given one, else the JIT build run by dotnet.</summary>
    public static ServerSpec Ours(string path)
    {
        bool jit = path.EndsWith(".dll", StringComparison.Ordinal);
        string host = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        return new ServerSpec("eventfilterd", jit ? $"JIT build (dotnet {path})" : $"NativeAOT build ({path})", Dialect.Bloom, KeepsData: true,
            (data, socket) => jit
                ? (host, [path, "--data", data, "--socket", socket, .. MaxClients])
                : (path, ["--data", data, "--socket", socket, .. MaxClients]));
    }

    /// <summary>
    /// Redis on its own Unix socket only, with an append-only file fsynced every second: the durability closest to
    /// eventfilterd's default (--log-sync periodic), so neither side is measured without its persistence.
    /// </summary>
    public static ServerSpec Redis(RedisServer server) =>
        new("redis", $"redis-server {server.Version}, appendonly yes, appendfsync everysec, no RDB snapshots", Dialect.Set, KeepsData: true,
            (data, socket) => (server.Path, [.. PrivateSocket(data, socket), "--appendonly", "yes", "--appendfsync", "everysec"]));

    /// <summary>
    /// RedisBloom loaded into the same redis-server, on its own Unix socket, with an append-only file fsynced every
    /// second as Redis's sets have: the durability closest to ours (--log-sync periodic), as a user who keeps what the
    /// filters hold runs it; it gets the same BF.* commands as ours.
    /// </summary>
    public static ServerSpec RedisBloom(RedisServer server, string module) =>
        new("redisbloom", $"redis-server {server.Version} with RedisBloom ({module}), appendonly yes, appendfsync everysec, no RDB snapshots", Dialect.Bloom, KeepsData: true,
            (data, socket) => (server.Path, [.. PrivateSocket(data, socket), "--appendonly", "yes", "--appendfsync", "everysec", "--loadmodule", module]));

    // No TCP port, a socket only its owner may open, no RDB snapshots, in the foreground, logging into the data directory.
    private static string[] PrivateSocket(string data, string socket) =>
    [
        "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--dir", data,
        "--save", "", "--daemonize", "no", "--logfile", Path.Combine(data, "redis.log"),
        "--maxclients", ClientsAllowed,
    ];

    // Room for the idle-connections row's clients and the harness's own (Rows/ManyClientRows.cs).
    private const string ClientsAllowed = "10100";

    private static readonly string[] MaxClients = ["--max-clients", ClientsAllowed];
}
