using System.Diagnostics;
using System.Net.Sockets;
using Xunit;

namespace EventFilter.Testing;

/// <summary>
/// eventfilterd as a real child process (<c>dotnet eventfilterd.dll</c>, copied beside the tests by a reference to
/// the daemon's project), so that it can be killed with SIGKILL mid-write. Ready means its socket accepts a
/// connection, polled with a bounded timeout. Shared by the daemon's tests and the CLI's client-mode tests.
/// </summary>
public sealed class DaemonProcess : IDisposable
{
    private static readonly TimeSpan StartTimeout = TimeSpan.FromSeconds(30);
    private readonly Process _process;
    private readonly List<string> _output = [];

    private DaemonProcess(string dataDirectory, string socketPath, string[] extraArguments, IReadOnlyDictionary<string, string>? environment = null, int? descriptorLimit = null)
    {
        SocketPath = socketPath;
        string dotnet = Environment.GetEnvironmentVariable("DOTNET_HOST_PATH") ?? "dotnet";
        // prlimit sets the limit and execs the daemon: the process, and its id, are the daemon's.
        var start = new ProcessStartInfo(descriptorLimit is null ? dotnet : "prlimit")
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
        };
        if (descriptorLimit is { } limit)
        {
            start.ArgumentList.Add(string.Create(System.Globalization.CultureInfo.InvariantCulture, $"--nofile={limit}:{limit}"));
            start.ArgumentList.Add(dotnet);
        }

        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "eventfilterd.dll"));
        foreach ((string name, string value) in environment ?? new Dictionary<string, string>())
        {
            start.Environment[name] = value;
        }

        foreach (string argument in (string[])["--data", dataDirectory, "--socket", socketPath, .. extraArguments])
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start)!;
        _process.OutputDataReceived += (_, e) => OnLine(e.Data);
        _process.ErrorDataReceived += (_, e) => OnLine(e.Data);
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public string SocketPath { get; }

    public int Id => _process.Id;

    public bool HasExited => _process.HasExited;

    public string Output
    {
        get
        {
            lock (_output)
            {
                return string.Join('\n', _output);
            }
        }
    }

    /// <summary>Starts the daemon and waits until its socket answers; the socket defaults to DIR/eventfilterd.sock.</summary>
    public static DaemonProcess Start(string dataDirectory, params string[] extraArguments) =>
        StartAt(dataDirectory, Path.Combine(dataDirectory, "eventfilterd.sock"), extraArguments);

    public static DaemonProcess StartAt(string dataDirectory, string socketPath, params string[] extraArguments) =>
        Listening(new DaemonProcess(dataDirectory, socketPath, extraArguments));

    /// <summary>Starts the daemon under `prlimit --nofile=LIMIT:LIMIT` and waits until its socket answers.</summary>
    public static DaemonProcess StartUnderDescriptorLimit(string dataDirectory, int limit, params string[] extraArguments) =>
        Listening(new DaemonProcess(dataDirectory, Path.Combine(dataDirectory, "eventfilterd.sock"), extraArguments, descriptorLimit: limit));

    /// <summary>Starts the daemon with variables added to its environment (Eventfilterd__Key settings, NOTIFY_SOCKET) and waits until its socket answers.</summary>
    public static DaemonProcess StartWithEnvironment(IReadOnlyDictionary<string, string> environment, string dataDirectory, params string[] extraArguments) =>
        Listening(new DaemonProcess(dataDirectory, Path.Combine(dataDirectory, "eventfilterd.sock"), extraArguments, environment));

    /// <summary>Returns <paramref name="daemon"/> once its socket answers; one that never does is stopped before the failure is thrown.</summary>
    private static DaemonProcess Listening(DaemonProcess daemon)
    {
        try
        {
            daemon.WaitUntilListening();
            return daemon;
        }
        catch
        {
            daemon.Dispose();
            throw;
        }
    }

    /// <summary>Starts the daemon with an environment and returns at once, not waiting for its socket (the notify-protocol tests watch the start themselves).</summary>
    public static DaemonProcess Launch(IReadOnlyDictionary<string, string> environment, string dataDirectory, params string[] extraArguments) =>
        new(dataDirectory, Path.Combine(dataDirectory, "eventfilterd.sock"), extraArguments, environment);

    /// <summary>Starts a daemon that is expected to refuse to start (or to exit at once, as --help); returns its exit code once it has exited.</summary>
    public static (int ExitCode, string Output) RunToExit(string dataDirectory, string socketPath, params string[] extraArguments) =>
        RunToExit(new Dictionary<string, string>(), dataDirectory, socketPath, extraArguments);

    /// <inheritdoc cref="RunToExit(string, string, string[])"/>
    public static (int ExitCode, string Output) RunToExit(IReadOnlyDictionary<string, string> environment, string dataDirectory, string socketPath, params string[] extraArguments)
    {
        using var daemon = new DaemonProcess(dataDirectory, socketPath, extraArguments, environment);
        Assert.True(daemon._process.WaitForExit(StartTimeout), "the daemon should have refused to start");
        daemon._process.WaitForExit(); // drains the redirected output
        return (daemon._process.ExitCode, daemon.Output);
    }

    /// <summary>SIGKILL: no shutdown, no checkpoint, no flush: a crash as far as the data directory can tell.</summary>
    public void Kill()
    {
        _process.Kill();
        _process.WaitForExit();
    }

    /// <summary>Sends SIGTERM and returns at once; <see cref="WaitForExit"/> waits for the stop.</summary>
    public void Terminate()
    {
        using Process kill = Process.Start("kill", ["-TERM", _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]);
        kill.WaitForExit();
    }

    /// <summary>Waits up to <paramref name="timeout"/> for the process to exit; its exit code, or null if it still runs.</summary>
    public int? WaitForExit(TimeSpan timeout)
    {
        if (!_process.WaitForExit(timeout))
        {
            return null;
        }

        _process.WaitForExit(); // drains the redirected output
        return _process.ExitCode;
    }

    /// <summary>SIGTERM, the host's clean stop: last checkpoints, socket removed. Returns the exit code.</summary>
    public int Stop()
    {
        Terminate();
        Assert.True(_process.WaitForExit(StartTimeout), $"the daemon did not stop on SIGTERM:\n{Output}");
        _process.WaitForExit(); // drains the redirected output, so Output is whole once Stop returns
        return _process.ExitCode;
    }

    /// <summary>Resident set size in bytes, from /proc.</summary>
    public long ResidentBytes() => StatusBytes("VmRSS:");

    /// <summary>The most resident memory the process has had since it started (the kernel's high-water mark).</summary>
    public long PeakResidentBytes() => StatusBytes("VmHWM:");

    private long StatusBytes(string field)
    {
        string line = File.ReadLines($"/proc/{_process.Id}/status").First(l => l.StartsWith(field, StringComparison.Ordinal));
        return long.Parse(line.Split(' ', StringSplitOptions.RemoveEmptyEntries)[1], System.Globalization.CultureInfo.InvariantCulture) * 1024;
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
    }

    private void WaitUntilListening() => Poll.Until(
        () =>
        {
            Assert.False(_process.HasExited, $"the daemon exited before listening:\n{Output}");
            return Accepts();
        },
        () => $"the daemon to listen:\n{Output}");

    private bool Accepts()
    {
        if (!File.Exists(SocketPath))
        {
            return false;
        }

        try
        {
            using var probe = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
            probe.Connect(new UnixDomainSocketEndPoint(SocketPath));
            return true;
        }
        catch (SocketException)
        {
            return false; // a stale file, or bound but not yet listening
        }
    }

    private void OnLine(string? line)
    {
        if (line is not null)
        {
            lock (_output)
            {
                _output.Add(line);
            }
        }
    }
}
