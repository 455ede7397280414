using System.Diagnostics;

namespace EventFilter.Tests.Durability;

/// <summary>Runs EventFilter.TestHost as a real child process, so it can be killed with SIGKILL mid-write.</summary>
public sealed class ChildProcess : IDisposable
{
    private readonly Process _process;
    private readonly List<string> _errors = [];
    private long _durable = -1;
    private long _readyAt = -1;
    private string _phase = "starting";
    private readonly HashSet<string> _phases = [];

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
            else if (e.Data?.StartsWith("ready ", StringComparison.Ordinal) == true)
            {
                Volatile.Write(ref _readyAt, long.Parse(e.Data.AsSpan(6), System.Globalization.CultureInfo.InvariantCulture));
            }
            else if (e.Data?.StartsWith("phase ", StringComparison.Ordinal) == true)
            {
                Volatile.Write(ref _phase, e.Data[6..]);
                lock (_phases) { _phases.Add(e.Data[6..]); }
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

    /// <summary>The last phase marker the child printed: where a kill now would land.</summary>
    public string Phase => Volatile.Read(ref _phase);

    public bool HasExited => _process.HasExited;

    /// <summary>True if the child ever printed this phase marker.</summary>
    public bool Saw(string phase)
    {
        lock (_phases) { return _phases.Contains(phase); }
    }

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

    /// <summary>Waits until the child has appended <paramref name="records"/> records since it became ready.</summary>
    public async Task WaitForAppendsAsync(long records, TimeSpan timeout)
    {
        var watch = Stopwatch.StartNew();
        while (Volatile.Read(ref _readyAt) < 0 || Durable - Volatile.Read(ref _readyAt) < records)
        {
            Assert.False(_process.HasExited, $"the child exited early: {Errors}");
            Assert.True(watch.Elapsed < timeout, $"the child appended too little in {timeout}: {Errors}");
            await Task.Delay(2);
        }
    }

    /// <summary>Waits until the child has printed the phase marker <paramref name="phase"/>.</summary>
    public async Task WaitForPhaseAsync(string phase, TimeSpan timeout)
    {
        var watch = Stopwatch.StartNew();
        while (!Saw(phase))
        {
            Assert.False(_process.HasExited, $"the child exited before phase {phase}: {Errors}");
            Assert.True(watch.Elapsed < timeout, $"the child did not reach phase {phase} in {timeout}: {Errors}");
            await Task.Delay(1);
        }
    }

    /// <summary>Waits until the last phase marker the child printed is <paramref name="phase"/>: a kill now lands in it.</summary>
    public async Task WaitUntilInPhaseAsync(string phase, TimeSpan timeout)
    {
        var watch = Stopwatch.StartNew();
        while (Phase != phase)
        {
            Assert.False(_process.HasExited, $"the child exited before it was in phase {phase}: {Errors}");
            Assert.True(watch.Elapsed < timeout, $"the child was not in phase {phase} within {timeout}: {Errors}");
            await Task.Delay(1);
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
