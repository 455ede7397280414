namespace EventFilter.DaemonBench.Servers;

/// <summary>One side of the table: how to start the server on a data directory and socket, and what it speaks.</summary>
internal sealed record ServerSpec(string Name, string Description, Dialect Dialect, Func<string, string, (string File, string[] Arguments)> CommandLine)
{
    /// <summary>eventfilterd: the NativeAOT binary when given one, else the JIT build run by dotnet.</summary>
    public static ServerSpec Ours(string path)
    {
        bool jit = path.EndsWith(".dll", StringComparison.Ordinal);
        string host = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        return new ServerSpec("eventfilterd", jit ? $"JIT build (dotnet {path})" : $"NativeAOT build ({path})", Dialect.Bloom,
            (data, socket) => jit
                ? (host, [path, "--data", data, "--socket", socket])
                : (path, ["--data", data, "--socket", socket]));
    }

    /// <summary>
    /// Redis on its own Unix socket only, with an append-only file fsynced every second: the durability closest to
    /// eventfilterd's default (--log-sync periodic), so neither side is measured without its persistence.
    /// </summary>
    public static ServerSpec Redis(string path, string version) =>
        new("redis", $"redis-server {version}, appendonly yes, appendfsync everysec, no RDB snapshots", Dialect.Set,
            (data, socket) => (path,
            [
                "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--dir", data,
                "--appendonly", "yes", "--appendfsync", "everysec", "--save", "", "--daemonize", "no",
                "--logfile", Path.Combine(data, "redis.log"),
            ]));
}
