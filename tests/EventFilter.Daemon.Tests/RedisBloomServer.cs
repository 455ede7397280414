using System.Diagnostics;
using System.Net.Sockets;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Debian's redis-server with the RedisBloom module (built by /work/shared/peers/redisbloom/build.sh, or wherever
/// REDISBLOOM_MODULE points), on a Unix socket of its own: the peer the StackExchange.Redis suite is also run against,
/// so that what it expects of eventfilterd is what RedisBloom does. No persistence; killed at the end.
/// </summary>
public sealed class RedisBloomServer : IDisposable
{
    private readonly TempDirectory _directory = new();
    private readonly Process? _process;

    /// <summary>Starts the server, unless <see cref="Missing"/> says it cannot run (then the tests using it are skipped).</summary>
    public RedisBloomServer()
    {
        SocketPath = _directory.File("redis.sock");
        if (Missing is not null)
        {
            return;
        }

        _process = Process.Start(new ProcessStartInfo("redis-server")
        {
            ArgumentList = { "--port", "0", "--unixsocket", SocketPath, "--save", "", "--appendonly", "no", "--dir", _directory.Path, "--loadmodule", ModulePath! },
            RedirectStandardOutput = true,
            UseShellExecute = false,
        })!;
        _process.BeginOutputReadLine();
        Poll.Until(IsListening, "redis-server to listen on its socket");
    }

    public string SocketPath { get; }

    /// <summary>The module, when built: REDISBLOOM_MODULE, else build.sh's default output.</summary>
    public static string? ModulePath { get; } = new[] { Environment.GetEnvironmentVariable("REDISBLOOM_MODULE"), "/tmp/redisbloom/redisbloom.so" }
        .FirstOrDefault(path => !string.IsNullOrEmpty(path) && File.Exists(path));

    /// <summary>Why the RedisBloom runs are skipped, or null when redis-server and the module are both there.</summary>
    public static string? Missing { get; } =
        ModulePath is null ? "RedisBloom is not built: run /work/shared/peers/redisbloom/build.sh (or set REDISBLOOM_MODULE)"
        : !File.Exists("/usr/bin/redis-server") ? "redis-server is not installed (build.sh installs it)"
        : null;

    public void Dispose()
    {
        if (_process is { HasExited: false })
        {
            _process.Kill();
            _process.WaitForExit();
        }

        _process?.Dispose();
        _directory.Dispose();
    }

    private bool IsListening()
    {
        Assert.False(_process!.HasExited, "redis-server exited before listening");
        try
        {
            using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            probe.Connect(new UnixDomainSocketEndPoint(SocketPath));
            return true;
        }
        catch (SocketException)
        {
            return false;
        }
    }
}

/// <summary>A test against <see cref="RedisBloomServer"/>: reported as skipped, with the reason, where it cannot run.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RedisBloomFactAttribute : FactAttribute
{
    public RedisBloomFactAttribute()
    {
        if (RedisBloomServer.Missing is { } reason)
        {
            Skip = reason;
        }
    }
}

/// <summary>A theory against <see cref="RedisBloomServer"/>: reported as skipped, with the reason, where it cannot run.</summary>
[AttributeUsage(AttributeTargets.Method)]
public sealed class RedisBloomTheoryAttribute : TheoryAttribute
{
    public RedisBloomTheoryAttribute()
    {
        if (RedisBloomServer.Missing is { } reason)
        {
            Skip = reason;
        }
    }
}
