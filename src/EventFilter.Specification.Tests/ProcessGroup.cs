using System.Collections.Concurrent;

namespace EventFilter.Specification;

/// <summary>
/// The processes of the multi-process scenario: lives of the host started over one host directory (one log), each
/// with a filter of its own in a directory of its own, opened as the hosting package opens the filter of one process
/// among several: following the log. Owns each process's current run, and the adds its host made across a restart.
/// </summary>
internal sealed class ProcessGroup
{
    private readonly Func<string, IStreamExistenceFilter, Task<IHostUnderTest>> _startHost;
    private readonly string _hostDirectory;
    private readonly string _root;
    private readonly long _sizeBytes;
    private readonly TimeProvider _time;
    private readonly KitRun?[] _runs;
    private readonly ConcurrentQueue<(string Stream, long RecordEnd)>[] _adds;

    // A kill and a round of checkpoints never overlap: a checkpoint must not reach a filter the kill is closing.
    private readonly SemaphoreSlim _lives = new(1, 1);

    public ProcessGroup(int count, Func<string, IStreamExistenceFilter, Task<IHostUnderTest>> startHost, string hostDirectory, string root, long sizeBytes, TimeProvider time)
    {
        (_startHost, _hostDirectory, _root, _sizeBytes, _time) = (startHost, hostDirectory, root, sizeBytes, time);
        _runs = new KitRun?[count];
        _adds = [.. Enumerable.Range(0, count).Select(_ => new ConcurrentQueue<(string, long)>())];
    }

    public int Count => _runs.Length;

    /// <summary>The current run of <paramref name="process"/>: the last one started, stopped or not.</summary>
    public KitRun this[int process] => _runs[process] ?? throw new InvalidOperationException($"{Name(process)} was never started.");

    /// <summary>The processes whose host and filter run now.</summary>
    public IEnumerable<int> Live => Enumerable.Range(0, Count).Where(p => _runs[p] is { IsStopped: false });

    /// <summary>How failures name a process: "process 2 of 3".</summary>
    public string Name(int process) => $"process {process + 1} of {Count}";

    /// <summary>
    /// Starts (or restarts) <paramref name="process"/>: its host over the one host directory, its filter in its own
    /// directory, following the log. With <paramref name="catchUp"/>, waits until the filter is ready.
    /// </summary>
    public async Task<KitRun> StartAsync(int process, bool catchUp = true)
    {
        if (_runs[process] is { IsStopped: false })
        {
            throw new InvalidOperationException($"{Name(process)} is running already.");
        }

        string filterDirectory = Path.Combine(_root, $"filter-{process + 1}");
        return _runs[process] = await KitRun.StartAsync(_startHost, _hostDirectory, filterDirectory, _sizeBytes, _adds[process], _time, catchUp, follow: true).ConfigureAwait(false);
    }

    /// <summary>Kills <paramref name="process"/>: its filter closes with no checkpoint, and its host is disposed.</summary>
    public async Task KillAsync(int process)
    {
        await _lives.WaitAsync().ConfigureAwait(false);
        try
        {
            await this[process].CrashAsync().ConfigureAwait(false);
        }
        finally
        {
            _lives.Release();
        }
    }

    /// <summary>
    /// Checkpoints every running filter at its log's end, over and over, until <paramref name="work"/> is done, and once
    /// more after: what each process's hosting package does on its timer. A following filter claims no more than it has
    /// read. <paramref name="work"/> must end by itself (each of its waits bounded by <see cref="KitRun.Patience"/>).
    /// </summary>
    public async Task CheckpointWhileAsync(Task work)
    {
        bool done;
        do
        {
            done = work.IsCompleted;
            await _lives.WaitAsync().ConfigureAwait(false);
            try
            {
                foreach (int process in Live)
                {
                    this[process].Checkpoint();
                }
            }
            finally
            {
                _lives.Release();
            }

            await Task.Yield();
        }
        while (!done);

        await work.ConfigureAwait(false);
    }

    /// <summary>After a failed test: stops every process still running.</summary>
    public void Abandon()
    {
        foreach (KitRun? run in _runs)
        {
            run?.Abandon();
        }
    }
}
