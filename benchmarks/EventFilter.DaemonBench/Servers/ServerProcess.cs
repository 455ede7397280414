using System.Diagnostics;
using System.Net.Sockets;
using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Servers;

/// <summary>
/// A server started as a child process (under <c>taskset -c 0</c> when pinned). Ready means it answered PING with
/// PONG over its socket; the time from spawn to that reply is the startup time the table reports.
/// </summary>
internal sealed class ServerProcess : IDisposable
{
    private static readonly TimeSpan ReadyTimeout = TimeSpan.FromSeconds(60);
    private readonly Process _process;
    private readonly List<string> _output = [];

    private ServerProcess(ServerSpec spec, string dataDirectory, bool pinned)
    {
        Spec = spec;
        DataDirectory = dataDirectory;
        SocketPath = Path.Combine(dataDirectory, "server.sock");
        (string file, string[] arguments) = spec.CommandLine(dataDirectory, SocketPath);
        var start = new ProcessStartInfo(pinned ? "taskset" : file)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        foreach (string argument in (string[])(pinned ? ["-c", "0", file, .. arguments] : arguments))
        {
            start.ArgumentList.Add(argument);
        }

        long spawned = Stopwatch.GetTimestamp();
        _process = Process.Start(start) ?? throw new InvalidOperationException($"could not start {file}");
        _process.OutputDataReceived += (_, e) => Keep(e.Data);
        _process.ErrorDataReceived += (_, e) => Keep(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
        StartupTime = WaitForPong(spawned);
    }

    public ServerSpec Spec { get; }

    public string DataDirectory { get; }

    public string SocketPath { get; }

    /// <summary>From spawning the process to its first PONG.</summary>
    public TimeSpan StartupTime { get; }

    /// <summary>Starts the server on <paramref name="dataDirectory"/> (kept as it is: a restart sees the last run's data).</summary>
    public static ServerProcess Start(ServerSpec spec, string dataDirectory, bool pinned)
    {
        Directory.CreateDirectory(dataDirectory);
        return new ServerProcess(spec, dataDirectory, pinned);
    }

    /// <summary>Resident set size now, from /proc (taskset execs the server, so the process id is the server's).</summary>
    public long ResidentKilobytes() => StatusKilobytes("VmRSS:");

    /// <summary>The highest resident set size the server has had since it started (the kernel's high-water mark).</summary>
    public long PeakResidentKilobytes() => StatusKilobytes("VmHWM:");

    private long StatusKilobytes(string field)
    {
        foreach (string line in File.ReadLines($"/proc/{_process.Id}/status"))
        {
            if (line.StartsWith(field, StringComparison.Ordinal))
            {
                return long.Parse(line[field.Length..].Trim().Split(' ')[0], System.Globalization.CultureInfo.InvariantCulture);
            }
        }

        throw new InvalidOperationException($"no {field} line");
    }

    public RespConnection Connect() => RespConnection.Connect(SocketPath);

    /// <summary>A clean stop (SIGTERM), so the next start of the same data directory is a restart, not a recovery.</summary>
    public void Dispose()
    {
        if (!_process.HasExited)
        {
            CpuPlacement.Terminate(_process.Id);
            if (!_process.WaitForExit(TimeSpan.FromSeconds(30)))
            {
                _process.Kill();
            }
        }

        _process.WaitForExit();
        _process.Dispose();
    }

    // Polls once a millisecond: a busy loop would take the CPU from a server starting on the same one (pinned mode).
    private TimeSpan WaitForPong(long spawned)
    {
        while (Stopwatch.GetElapsedTime(spawned) < ReadyTimeout)
        {
            if (_process.HasExited)
            {
                throw new InvalidOperationException($"{Spec.Name} exited with code {_process.ExitCode}: {Output()}");
            }

            if (File.Exists(SocketPath) && TryPing())
            {
                return Stopwatch.GetElapsedTime(spawned);
            }

            Thread.Sleep(1);
        }

        throw new TimeoutException($"{Spec.Name} did not answer PING within {ReadyTimeout}: {Output()}");
    }

    // Redis answers -LOADING while it reads its append-only file: not ready yet.
    private bool TryPing()
    {
        try
        {
            using RespConnection probe = Connect();
            probe.Send(Dialect.Ping);
            return probe.ReadLine() == "+PONG";
        }
        catch (Exception e) when (e is SocketException or InvalidOperationException)
        {
            return false;
        }
    }

    private void Keep(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.Add(line);
            }
        }
    }

    private string Output()
    {
        lock (_output)
        {
            return string.Join('\n', _output.TakeLast(20));
        }
    }
}
