using System.Net;
using EventFilter.Daemon.Formats;
using EventFilter.Daemon.Server;

namespace EventFilter.Daemon;

/// <summary>How the digest logs reach the disk. See docs/daemon-design.md, "Durability".</summary>
internal enum LogSync
{
    /// <summary>fsync every second (and at each checkpoint): an acknowledged add survives SIGKILL; power loss costs at most the interval.</summary>
    Periodic,

    /// <summary>fsync before every reply that added something: an acknowledged add survives SIGKILL and power loss.</summary>
    Always,
}

/// <summary>
/// eventfilterd's settings, validated up front: a bad value stops the start with one line naming the setting and where
/// it came from (Configuration/DaemonConfiguration.cs). Each setting's name, option and parser are in
/// Configuration/DaemonSettings.cs; the defaults are here.
/// </summary>
internal sealed record DaemonOptions
{
    public string DataDirectory { get; init; } = "./data";

    /// <summary>Null for the default, data/eventfilterd.sock.</summary>
    public string? SocketPath { get; init; }

    public UnixFileMode SocketMode { get; init; } = (UnixFileMode)Convert.ToInt32("660", 8);

    /// <summary>TCP port; null for none.</summary>
    public int? Port { get; init; }

    /// <summary>The TCP address. The default value is loopback; any other address needs a password (<see cref="Password"/>).</summary>
    public IPAddress BindAddress { get; init; } = IPAddress.Loopback;

    public LogSync LogSync { get; init; } = LogSync.Periodic;

    public TimeSpan SyncInterval { get; init; } = TimeSpan.FromSeconds(1);

    /// <summary>Capacity of filters made by BF.ADD, BF.MADD and BF.INSERT on a missing key. The default value is 100 (RedisBloom's).</summary>
    public long DefaultCapacity { get; init; } = 100;

    /// <summary>Error rate of filters made on demand. The default value is 0.01 (RedisBloom's).</summary>
    public double DefaultErrorRate { get; init; } = 0.01;

    /// <summary>
    /// Connections served at once; one more is answered <c>-ERR max number of clients reached</c> and closed, as Redis does.
    /// Each connection holds, while it reads one large command, a buffer of up to 64 MiB (RespLimits), so this bounds the daemon's memory.
    /// The default value is 1024.
    /// </summary>
    public int MaxClients { get; init; } = 1024;

    /// <summary>The file the password was read from (--requirepass-file); null for none.</summary>
    public string? PasswordFile { get; init; }

    /// <summary>The password every connection must AUTH with first, read from <see cref="PasswordFile"/>; null for none.</summary>
    public ClientPassword? Password { get; init; }

    /// <summary>The configuration file read (--config); null for none. Shown by INFO as Redis's config_file.</summary>
    public string? ConfigFile { get; init; }

    public string SocketPathOrDefault => SocketPath ?? Path.Combine(DataDirectory, DataLayout.DefaultSocketFile);
}
