using System.Diagnostics;

namespace EventFilter.Tests.Durability;

/// <summary>Runs EventFilter.TestHost as a real child process, so it can be killed with SIGKILL mid-write.</summary>
public sealed class ChildProcess : IDisposable
{
    private readonly Process _process;
    private readonly List<string> _errors = [];
    private long _durable = -1;

    public ChildProcess(params string[] args)
    {
        var start = new ProcessStartInfo("dotnet") { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        start.ArgumentList.Add(Path.Combine(AppContext.BaseDirectory, "EventFilter.TestHost.dll"));
        foreach (string arg in args)
        {
            start.ArgumentList.Add(arg);
        }

        _process = Process.Start(start)!;
        _process.OutputDataReceived += (_, e) =>
        {
            if (e.Data?.StartsWith("durable ", StringComparison.Ordinal) == true)
            {
                Volatile.Write(ref _durable, long.Parse(e.Data.AsSpan(8), System.Globalization.CultureInfo.InvariantCulture));
            }
        };
        _process.ErrorDataReceived += (_, e) =>
        {
            if (e.Data is not null)
            {
                lock (_errors) { _errors.Add(e.Data); }
            }
        };
        _process.BeginOutputReadLine();
        _process.BeginErrorReadLine();
    }

    /// <summary>Records the child reported durable so far; -1 before its first fsync.</summary>
    public long Durable => Volatile.Read(ref _durable);

    public string Errors
    {
        get
        {
            lock (_errors) { return string.Join(Environment.NewLine, _errors); }
        }
    }

    /// <summary>Waits until the child has made at least <paramref name="records"/> records durable.</summary>
    public async Task WaitForDurableAsync(long records, TimeSpan timeout)
    {
        var watch = Stopwatch.StartNew();
        while (Durable < records)
        {
            Assert.False(_process.HasExited, $"the child exited early: {Errors}");
            Assert.True(watch.Elapsed < timeout, $"the child made only {Durable} records durable in {timeout}: {Errors}");
            await Task.Delay(5);
        }
    }

    /// <summary>SIGKILL: no finally blocks, no flush, no checkpoint.</summary>
    public void Kill()
    {
        _process.Kill();
        _process.WaitForExit();
    }

    public void Dispose()
    {
        if (!_process.HasExited)
        {
            Kill();
        }

        _process.Dispose();
    }
}
