using System.Diagnostics;

namespace EventFilter.StreamCreation;

/// <summary>
/// Counts completed appends and stamps the moment each window of <c>window</c> streams completes. The append whose
/// increment lands exactly on a window boundary stamps it, so every window is stamped once, without a lock.
/// </summary>
internal sealed class WindowRecorder
{
    private readonly long _window;
    private readonly long[] _stamps;
    private readonly long _started;
    private long _completed;

    public WindowRecorder(long total, long window)
    {
        _window = window;
        _stamps = new long[(total / window) + 1];
        _started = Stopwatch.GetTimestamp();
        _stamps[0] = _started;
    }

    /// <summary>Appends completed so far.</summary>
    public long Completed => Interlocked.Read(ref _completed);

    /// <summary>Time since the recorder was created (the run's first append).</summary>
    public TimeSpan Elapsed => Stopwatch.GetElapsedTime(_started);

    /// <summary>Called once per completed append, from any thread.</summary>
    public void AppendCompleted()
    {
        long done = Interlocked.Increment(ref _completed);
        if (done % _window == 0)
        {
            Volatile.Write(ref _stamps[done / _window], Stopwatch.GetTimestamp());
        }
    }

    /// <summary>The rows of every window completed, for the CSV.</summary>
    public IEnumerable<RateRow> Rows(string config)
    {
        long windows = Completed / _window;
        for (long i = 1; i <= windows; i++)
        {
            double seconds = Stopwatch.GetElapsedTime(_stamps[i - 1], _stamps[i]).TotalSeconds;
            yield return new RateRow(config, i * _window, Stopwatch.GetElapsedTime(_started, _stamps[i]).TotalSeconds, _window / seconds);
        }
    }
}
