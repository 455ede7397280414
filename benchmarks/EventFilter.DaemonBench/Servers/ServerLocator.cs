using System.Diagnostics;

namespace EventFilter.DaemonBench.Servers;

/// <summary>
/// Finds the servers. Ours: the NativeAOT binary from benchmarks/daemon/publish-aot.sh when it exists (or with
/// --daemon aot), else the JIT build this project's reference has just built. Redis: Debian's redis-server, installed
/// by benchmarks/daemon/install-tools.sh when missing (a full run only; --quick skips Redis instead, saying why).
/// RedisBloom: the module given with --redisbloom, in that same redis-server; never built or guessed here.
/// </summary>
internal static class ServerLocator
{
    public static string RepositoryRoot()
    {
        for (DirectoryInfo? directory = new(AppContext.BaseDirectory); directory is not null; directory = directory.Parent)
        {
            if (File.Exists(Path.Combine(directory.FullName, "EventFilter.sln")))
            {
                return directory.FullName;
            }
        }

        throw new InvalidOperationException("run from the repository: EventFilter.sln not found above " + AppContext.BaseDirectory);
    }

    /// <exception cref="InvalidOperationException">The asked-for build is missing.</exception>
    public static ServerSpec Ours(string choice, string root)
    {
        string daemon = Path.Combine(root, "src", "EventFilter.Daemon", "bin", "Release", "net10.0");
        string aot = Path.Combine(daemon, "linux-x64", "publish", "eventfilterd");
        string jit = Path.Combine(daemon, "eventfilterd.dll");
        string path = choice switch
        {
            "aot" => File.Exists(aot) ? aot : throw new InvalidOperationException($"no NativeAOT build at {aot}: run benchmarks/daemon/publish-aot.sh"),
            "jit" => jit,
            "auto" => File.Exists(aot) ? aot : jit,
            _ => choice,
        };
        if (path == aot && File.Exists(jit) && File.GetLastWriteTimeUtc(aot) < File.GetLastWriteTimeUtc(jit))
        {
            Console.Error.WriteLine($"warning: the NativeAOT build {aot} is older than the JIT build; re-run benchmarks/daemon/publish-aot.sh if the source changed");
        }

        return File.Exists(path) ? ServerSpec.Ours(path) : throw new InvalidOperationException($"no eventfilterd at {path}");
    }

    /// <summary>Redis's spec, or null with the reason it is skipped.</summary>
    public static (ServerSpec? Spec, string? Skipped) Redis(BenchSettings settings, string root)
    {
        if (settings.SkipRedis)
        {
            return (null, "--no-redis");
        }

        (RedisServer? server, string? missing) = FindRedisServer(settings, root);
        return server is null ? (null, missing) : (ServerSpec.Redis(server), null);
    }

    /// <summary>
    /// RedisBloom's spec: the module given with --redisbloom, loaded into the same redis-server as Redis's; or null
    /// with the reason it is left out (no --redisbloom, no such file, no redis-server).
    /// </summary>
    public static (ServerSpec? Spec, string? Skipped) RedisBloom(BenchSettings settings, string root)
    {
        if (settings.RedisBloomModule is not { } module)
        {
            return (null, "no --redisbloom PATH/redisbloom.so given; docs/benchmarks-daemon.md says how to build the module");
        }

        if (!File.Exists(module))
        {
            return (null, $"the module {module} does not exist; docs/benchmarks-daemon.md says how to build it");
        }

        (RedisServer? server, string? missing) = FindRedisServer(settings, root);
        return server is null ? (null, missing) : (ServerSpec.RedisBloom(server, Path.GetFullPath(module)), null);
    }

    /// <summary>
    /// Debian's redis-benchmark, which drives the many-clients rows: installed with redis-server by
    /// benchmarks/daemon/install-tools.sh on a full run; null when missing (the rows are then left out, saying why).
    /// </summary>
    public static string? RedisBenchmark(BenchSettings settings, string root)
    {
        if (Find("redis-benchmark") is null && !settings.Quick)
        {
            Run(Path.Combine(root, "benchmarks", "daemon", "install-tools.sh"), "redis");
        }

        return Find("redis-benchmark");
    }

    private static (RedisServer? Server, string? Missing) FindRedisServer(BenchSettings settings, string root)
    {
        string? path = Find("redis-server");
        if (path is null && !settings.Quick)
        {
            Run(Path.Combine(root, "benchmarks", "daemon", "install-tools.sh"), "redis");
            path = Find("redis-server");
        }

        if (path is null)
        {
            return (null, settings.Quick
                ? "redis-server is not installed (benchmarks/daemon/install-tools.sh redis installs it; --quick does not)"
                : "redis-server could not be installed with benchmarks/daemon/install-tools.sh");
        }

        string version = Run(path, "--version").Split(' ').FirstOrDefault(w => w.StartsWith("v=", StringComparison.Ordinal))?[2..] ?? "unknown";
        return (new RedisServer(path, version), null);
    }

    private static string? Find(string program) =>
        (Environment.GetEnvironmentVariable("PATH") ?? "").Split(':').Select(d => Path.Combine(d, program)).FirstOrDefault(File.Exists);

    private static string Run(string file, string argument)
    {
        using Process process = Process.Start(new ProcessStartInfo(file, [argument]) { RedirectStandardOutput = true, UseShellExecute = false })
            ?? throw new InvalidOperationException($"could not run {file}");
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();
        return process.ExitCode == 0 ? output : throw new InvalidOperationException($"{file} {argument} exited with {process.ExitCode}");
    }
}
