using System.Diagnostics;

namespace EventLog.Server.Tests;

/// <summary>
/// EventLog.Server as a real child process (<c>dotnet EventLog.Server.dll</c>, copied beside the tests), so that it
/// can be killed with SIGKILL mid-write or stopped with SIGINT as Ctrl+C would. Its address comes from the start-up line.
/// </summary>
public sealed class ServerProcess : IDisposable
{
    private const string ListeningMarker = "EventLog server listening on ";

    private readonly Process _process;
    private readonly List<string> _output = [];
    private readonly List<string> _errors = [];
    private readonly TaskCompletionSource<Uri> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<(string Text, TaskCompletionSource Seen)> _awaitedLines = [];

    private ServerProcess(string dataDirectory, string[] extraArguments, int? userId = null)
    {
        var start = new ProcessStartInfo(userId is null ? "dotnet" : "setpriv") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        if (userId is { } id)
        {
            // As another user (root only): with that user's id as its group, and no supplementary groups.
            foreach (string argument in (string[])[$"--reuid={id}", $"--regid={id}", "--clear-groups", "dotnet"])
            {
                start.ArgumentList.Add(argument);
            }
        }

        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "EventLog.Server.dll"));

        // Information, unlike the in-process servers: the start-up line carries the port.
        foreach (string argument in ServerArguments.For(dataDirectory, ["--Serilog:MinimumLevel:Default", "Information", .. extraArguments]))
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start)!;
        _process.OutputDataReceived += (_, e) => OnLine(e.Data);
        _process.ErrorDataReceived += (_, e) => OnLine(e.Data, _errors);
        _process.Exited += (_, _) => _listening.TrySetException(new InvalidOperationException($"the server exited before listening:\n{Output}"));
        _process.EnableRaisingEvents = true;
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    public EventsApi Api { get; private set; } = null!;

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

    /// <summary>What the server printed on stderr only.</summary>
    public string Errors
    {
        get
        {
            lock (_output)
            {
                return string.Join('\n', _errors);
            }
        }
    }

    public static async Task<ServerProcess> StartAsync(string dataDirectory, params string[] extraArguments)
    {
        var server = new ServerProcess(dataDirectory, extraArguments);
        try
        {
            Uri address = await server._listening.Task.WaitAsync(Poll.Bound);
            server.Api = new EventsApi(address);
            return server;
        }
        catch
        {
            server.Dispose();
            throw;
        }
    }

    /// <summary>Starts the process and returns at once, without waiting for it to listen (to kill it during its start).</summary>
    public static ServerProcess Launch(string dataDirectory, params string[] extraArguments) => new(dataDirectory, extraArguments);

    /// <summary>Completes when the server prints a line containing <paramref name="text"/> (or has printed one already).</summary>
    public Task WaitForLineAsync(string text)
    {
        var seen = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        lock (_output)
        {
            if (_output.Any(line => line.Contains(text, StringComparison.Ordinal)))
            {
                return Task.CompletedTask;
            }

            _awaitedLines.Add((text, seen));
        }

        return seen.Task.WaitAsync(Poll.Bound);
    }

    /// <summary>
    /// Runs a server that is expected not to start, to its exit, as the user <paramref name="userId"/> if given (root
    /// only): its exit code, everything it printed, and what it printed on stderr.
    /// </summary>
    public static async Task<(int ExitCode, string Output, string Errors)> RunToExitAsync(string dataDirectory, string[] extraArguments, int? userId = null)
    {
        using var server = new ServerProcess(dataDirectory, extraArguments, userId);
        using var wait = new CancellationTokenSource(Poll.Bound);
        await server._process.WaitForExitAsync(wait.Token);
        server._process.WaitForExit(); // and the end of its output
        return (server._process.ExitCode, server.Output, server.Errors);
    }

    /// <inheritdoc cref="RunToExitAsync(string, string[], int?)"/>
    public static Task<(int ExitCode, string Output, string Errors)> RunToExitAsync(string dataDirectory) => RunToExitAsync(dataDirectory, []);

    /// <summary>SIGKILL: no shutdown, no final checkpoint, no flush: a crash as far as the data directory can tell.</summary>
    public void Kill()
    {
        _process.Kill();
        _process.WaitForExit();
    }

    /// <summary>
    /// SIGINT, as Ctrl+C in a terminal; returns the exit code. A process started in the background by a
    /// non-interactive shell (as `dotnet test ... &amp;` is) inherits SIGINT ignored, and .NET leaves it so: then the
    /// child gets SIGTERM, which the host handles on the same path (stop the application, run every StopAsync).
    /// </summary>
    public Task<int> InterruptAsync(TimeSpan timeout) => SignalAsync(SigIntIgnored() ? "-TERM" : "-INT", timeout);

    /// <summary>SIGTERM, as a service manager stops a service (systemctl stop, docker stop); returns the exit code.</summary>
    public Task<int> TerminateAsync(TimeSpan timeout) => SignalAsync("-TERM", timeout);

    private async Task<int> SignalAsync(string signal, TimeSpan timeout)
    {
        using (var kill = Process.Start("kill", [signal, _process.Id.ToString(System.Globalization.CultureInfo.InvariantCulture)]))
        {
            await kill.WaitForExitAsync();
        }

        using var wait = new CancellationTokenSource(timeout);
        try
        {
            await _process.WaitForExitAsync(wait.Token);
        }
        catch (OperationCanceledException)
        {
            Assert.Fail($"the server did not exit within {timeout} of {signal}:\n{Output}");
        }

        return _process.ExitCode;
    }

    // Bit 1 of SigIgn in /proc/<pid>/status is SIGINT (signal 2).
    private bool SigIntIgnored()
    {
        string? line = File.ReadLines($"/proc/{_process.Id}/status").FirstOrDefault(l => l.StartsWith("SigIgn:", StringComparison.Ordinal));
        return line is not null && (ulong.Parse(line.AsSpan(7).Trim(), System.Globalization.NumberStyles.HexNumber, System.Globalization.CultureInfo.InvariantCulture) & 0x2) != 0;
    }

    public void Dispose()
    {
        Api?.Dispose();
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
    }

    private void OnLine(string? line, List<string>? stream = null)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.Add(line);
            stream?.Add(line);
            _awaitedLines.RemoveAll(awaited => line.Contains(awaited.Text, StringComparison.Ordinal) && awaited.Seen.TrySetResult());
        }

        int marker = line.IndexOf(ListeningMarker, StringComparison.Ordinal);
        if (marker >= 0)
        {
            string rest = line[(marker + ListeningMarker.Length)..];
            int end = rest.IndexOfAny([' ', ',']);
            _listening.TrySetResult(new Uri((end < 0 ? rest : rest[..end]) + "/"));
        }
    }
}
