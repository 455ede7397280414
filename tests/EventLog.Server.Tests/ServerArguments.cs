namespace EventLog.Server.Tests;

/// <summary>The command line every test server gets: a free loopback port, its own data directory, a small filter, quiet logs.</summary>
public static class ServerArguments
{
    public static string[] For(string dataDirectory, params string[] extra) =>
    [
        "--urls", "http://127.0.0.1:0",
        "--data", dataDirectory,
        "--stream-existence-filter-size", "1MB",
        "--Serilog:MinimumLevel:Default", "Warning",
        .. extra,
    ];
}
