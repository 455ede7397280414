using System.Diagnostics;

namespace EventFilter.PostgreSqlBench;

/// <summary>The driver's handle on one <see cref="BenchProcess"/>: this program started again with <c>--child</c>.</summary>
internal sealed class ChildProcess : IDisposable
{
    private readonly Process _process;

    private ChildProcess(Process process) => _process = process;

    public static ChildProcess Start(IEnumerable<string> arguments)
    {
        var start = new ProcessStartInfo(Environment.ProcessPath!) { RedirectStandardInput = true, RedirectStandardOutput = true, UseShellExecute = false };
        string entry = typeof(ChildProcess).Assembly.Location;
        if (Path.GetFileNameWithoutExtension(Environment.ProcessPath) == "dotnet")
        {
            start.ArgumentList.Add(entry); // run as `dotnet EventFilter.PostgreSqlBench.dll`
        }

        foreach (string argument in (string[])["--child", .. arguments])
        {
            start.ArgumentList.Add(argument);
        }

        return new ChildProcess(Process.Start(start)!);
    }

    /// <summary>The next line it prints, which must start with <paramref name="word"/>; the rest of it.</summary>
    public async Task<string> ExpectAsync(string word)
    {
        string line = await _process.StandardOutput.ReadLineAsync() ?? throw new InvalidOperationException($"the process exited before '{word}' (exit code {(_process.HasExited ? _process.ExitCode : -1)})");
        return line.StartsWith(word + " ", StringComparison.Ordinal) ? line[(word.Length + 1)..] : throw new InvalidOperationException($"expected '{word}', got '{line}'");
    }

    public Task SayAsync(string word) => _process.StandardInput.WriteLineAsync(word);

    public async Task StopAsync()
    {
        await SayAsync("stop");
        await _process.WaitForExitAsync();
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            _process.Kill();
        }

        _process.Dispose();
    }
}
