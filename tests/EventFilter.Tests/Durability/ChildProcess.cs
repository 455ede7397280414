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
    public Task WaitForDurableAsync(long records) => WaitAsync(
        () => Durable >= records, "exited early", () => $"the child to make {records} records durable (it made {Durable})");

    /// <summary>Waits until the child has appended <paramref name="records"/> records since it became ready.</summary>
    public Task WaitForAppendsAsync(long records) => WaitAsync(
        () => Volatile.Read(ref _readyAt) >= 0 && Durable - Volatile.Read(ref _readyAt) >= records,
        "exited early",
        () => $"the child to append {records} records after it became ready",
        TimeSpan.FromMilliseconds(2));

    /// <summary>Waits until the child has printed the phase marker <paramref name="phase"/>.</summary>
    public Task WaitForPhaseAsync(string phase) => WaitAsync(
        () => Saw(phase), $"exited before phase {phase}", () => $"the child to reach phase {phase}", TimeSpan.FromMilliseconds(1));

    /// <summary>Waits until the last phase marker the child printed is <paramref name="phase"/>: a kill now lands in it.</summary>
    public Task WaitUntilInPhaseAsync(string phase) => WaitAsync(
        () => Phase == phase, $"exited before it was in phase {phase}", () => $"the child to be in phase {phase}", TimeSpan.FromMilliseconds(1));

    // The child exiting first is a failure of its own, reported with its errors rather than as a hang.
    private Task WaitAsync(Func<bool> condition, string exited, Func<string> what, TimeSpan? every = null) => Poll.UntilAsync(
        () =>
        {
            bool done = condition();
            Assert.False(!done && _process.HasExited, $"the child {exited}: {Errors}");
            return done;
        },
        () => $"{what()}: {Errors}",
        every);

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
