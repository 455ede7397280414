using System.Threading.Tasks.Sources;
using EventFilter.Daemon.Filters;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One connection's wait for the fsync of the logs its batch wrote (<see cref="LogSyncQueue"/>): made once per
/// connection and reused for every batch, so waiting allocates nothing. The connection resumes on the thread pool, never
/// on the sync thread, which goes straight on to the next round.
/// </summary>
internal sealed class LogSyncWait : IValueTaskSource
{
    private ManualResetValueTaskSourceCore<bool> _core = new() { RunContinuationsAsynchronously = true };
    private ValueTask _pending;

    /// <summary>The filters whose logs this batch wrote; the connection fills it, and empties it once the wait is over.</summary>
    public List<NamedFilter> Filters { get; } = [];

    /// <summary>Queues this wait on <paramref name="queue"/>; completes once every filter in <see cref="Filters"/> is fsynced, or throws the failure.</summary>
    public ValueTask WaitAsync(LogSyncQueue queue)
    {
        _core.Reset();
        var wait = new ValueTask(this, _core.Version);
        queue.Enqueue(this);
        return wait;
    }

    /// <summary>
    /// Queues this wait and calls <paramref name="resume"/> (on the thread pool) once it is over: a connection on an
    /// event loop posts itself back to its loop there, and takes the outcome with <see cref="Finish"/>.
    /// </summary>
    public void Start(LogSyncQueue queue, Action resume)
    {
        _pending = WaitAsync(queue);
        _pending.GetAwaiter().UnsafeOnCompleted(resume);
    }

    /// <summary>After <see cref="Start"/>'s resume: throws the fsync's failure, if any; the filters are cleared either way.</summary>
    public void Finish()
    {
        try
        {
            _pending.GetAwaiter().GetResult();
        }
        finally
        {
            Filters.Clear();
        }
    }

    /// <summary>Called by the sync thread once: null when every log is synced.</summary>
    public void Complete(Exception? failure)
    {
        if (failure is null)
        {
            _core.SetResult(true);
        }
        else
        {
            _core.SetException(failure);
        }
    }

    public void GetResult(short token) => _core.GetResult(token);

    public ValueTaskSourceStatus GetStatus(short token) => _core.GetStatus(token);

    public void OnCompleted(Action<object?> continuation, object? state, short token, ValueTaskSourceOnCompletedFlags flags) =>
        _core.OnCompleted(continuation, state, token, flags);
}
