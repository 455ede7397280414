using System.Globalization;
using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon;

/// <summary>How the digest logs reach the disk. See docs/daemon.md, "Durability".</summary>
internal enum LogSync
{
    /// <summary>fsync every second (and at each checkpoint): an acknowledged add survives SIGKILL; power loss costs at most the interval.</summary>
    Periodic,

    /// <summary>fsync before every reply that added something: an acknowledged add survives SIGKILL and power loss.</summary>
    Always,
}

/// <summary>eventfilterd's command line, validated up front: a bad value stops the start with a message naming the option.</summary>
internal sealed record DaemonOptions
{
    public string DataDirectory { get; init; } = "./data";

    /// <summary>Null for the default, data/eventfilterd.sock.</summary>
    public string? SocketPath { get; init; }

    public UnixFileMode SocketMode { get; init; } = (UnixFileMode)Convert.ToInt32("660", 8);

    /// <summary>Loopback TCP port; null for none.</summary>
    public int? Port { get; init; }

    public LogSync LogSync { get; init; } = LogSync.Periodic;

    public TimeSpan SyncInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Capacity of filters made by BF.ADD, BF.MADD and BF.INSERT on a missing key. The default value is 100 (RedisBloom's).</summary>
    public long DefaultCapacity { get; init; } = 100;

    /// <summary>Error rate of filters made on demand. The default value is 0.01 (RedisBloom's).</summary>
    public double DefaultErrorRate { get; init; } = 0.01;

    /// <summary>
    /// Connections served at once; one more is answered <c>-ERR max number of clients reached</c> and closed, as Redis does.
    /// Each connection has a thread and a buffer of up to 64 MiB (RespLimits), so this bounds the daemon's memory.
    /// The default value is 1024.
    /// </summary>
    public int MaxClients { get; init; } = 1024;

    public string SocketPathOrDefault => SocketPath ?? Path.Combine(DataDirectory, DataLayout.DefaultSocketFile);

    public const string Usage = "usage: eventfilterd [--data DIR] [--socket PATH] [--socket-mode OCTAL] [--port N] [--log-sync always|periodic] [--sync-interval-ms N] [--default-capacity N] [--default-error-rate R] [--max-clients N]";

    /// <exception cref="ArgumentException">An unknown option or a value out of range, named in the message.</exception>
    public static DaemonOptions Parse(IReadOnlyList<string> args)
    {
        var options = new DaemonOptions();
        for (int i = 0; i < args.Count; i++)
        {
            string name = args[i];
            string value = i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{name} needs a value. {Usage}");
            options = name switch
            {
                "--data" => options with { DataDirectory = value },
                "--socket" => options with { SocketPath = value },
                "--socket-mode" => options with { SocketMode = (UnixFileMode)ParseNumber(name, value, 0, 511, fromBase: 8) },
                "--port" => options with { Port = (int)ParseNumber(name, value, 1, 65535) },
                "--log-sync" => options with { LogSync = value switch { "always" => LogSync.Always, "periodic" => LogSync.Periodic, _ => throw new ArgumentException($"--log-sync must be 'always' or 'periodic'; got '{value}'.") } },
                "--sync-interval-ms" => options with { SyncInterval = TimeSpan.FromMilliseconds(ParseNumber(name, value, 10, 3_600_000)) },
                "--default-capacity" => options with { DefaultCapacity = ParseNumber(name, value, 1, 1L << 40) },
                "--default-error-rate" => options with { DefaultErrorRate = ParseRate(name, value) },
                "--max-clients" => options with { MaxClients = (int)ParseNumber(name, value, 1, 1_000_000) },
                _ => throw new ArgumentException($"unknown option '{name}'. {Usage}"),
            };
        }

        return options;
    }

    private static long ParseNumber(string name, string value, long min, long max, int fromBase = 10)
    {
        long parsed;
        try
        {
            parsed = fromBase == 10 ? long.Parse(value, NumberStyles.None, CultureInfo.InvariantCulture) : Convert.ToInt64(value, fromBase);
        }
        catch (Exception e) when (e is FormatException or OverflowException or ArgumentException)
        {
            throw new ArgumentException($"{name} must be a number from {min} to {max}; got '{value}'.", e);
        }

        return parsed >= min && parsed <= max ? parsed : throw new ArgumentException($"{name} must be from {min} to {max}; got '{value}'.");
    }

    private static double ParseRate(string name, string value) =>
        double.TryParse(value, NumberStyles.Float, CultureInfo.InvariantCulture, out double rate) && rate > 0 && rate < 1
            ? rate
            : throw new ArgumentException($"{name} must be strictly between 0 and 1; got '{value}'.");
}
