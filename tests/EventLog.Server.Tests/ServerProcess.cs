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
    private readonly TaskCompletionSource<Uri> _listening = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly List<(string Text, TaskCompletionSource Seen)> _awaitedLines = [];

    private ServerProcess(string dataDirectory, string[] extraArguments)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "EventLog.Server.dll"));

        // Information, unlike the in-process servers: the start-up line carries the port.
        foreach (string argument in ServerArguments.For(dataDirectory, ["--Serilog:MinimumLevel:Default", "Information", .. extraArguments]))
        {
            start.ArgumentList.Add(argument);
        }

        _process = Process.Start(start)!;
        _process.OutputDataReceived += (_, e) => OnLine(e.Data);
        _process.ErrorDataReceived += (_, e) => OnLine(e.Data);
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

    public static async Task<ServerProcess> StartAsync(string dataDirectory, params string[] extraArguments)
    {
        var server = new ServerProcess(dataDirectory, extraArguments);
        try
        {
            Uri address = await server._listening.Task.WaitAsync(HangGuard.Limit);
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

        return seen.Task.WaitAsync(HangGuard.Limit);
    }

    /// <summary>Runs a server that is expected not to start, to its exit: its exit code and everything it printed.</summary>
    public static async Task<(int ExitCode, string Output)> RunToExitAsync(string dataDirectory, params string[] extraArguments)
    {
        using var server = new ServerProcess(dataDirectory, extraArguments);
        using var wait = new CancellationTokenSource(HangGuard.Limit);
        await server._process.WaitForExitAsync(wait.Token);
        server._process.WaitForExit(); // and the end of its output
        return (server._process.ExitCode, server.Output);
    }

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
    public async Task<int> InterruptAsync(TimeSpan timeout)
    {
        string signal = SigIntIgnored() ? "-TERM" : "-INT";
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
            Assert.Fail($"the server did not exit within {timeout} of SIGINT:\n{Output}");
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

    private void OnLine(string? line)
    {
        if (line is null)
        {
            return;
        }

        lock (_output)
        {
            _output.Add(line);
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
