using System.Runtime.ExceptionServices;
using EventFilter.Daemon.Filters;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One connection's wait for the fsync of the logs its batch wrote (<see cref="LogSyncQueue"/>): made once per
/// connection and reused for every batch, so waiting allocates nothing. The sync thread calls the connection's resume
/// callback itself, which only posts the connection back to its event loop (<see cref="EventLoop.Post"/>): no hop
/// through the thread pool, whose work item would be an allocation per batch.
/// </summary>
internal sealed class LogSyncWait
{
    private Action? _resume;
    private Exception? _failure;

    /// <summary>The filters whose logs this batch wrote; the connection fills it, and <see cref="Finish"/> empties it.</summary>
    public List<NamedFilter> Filters { get; } = [];

    /// <summary>
    /// Queues this wait on <paramref name="queue"/>; <paramref name="resume"/> is called once, on the sync thread (or on
    /// this one, when the queue is stopped), when every filter in <see cref="Filters"/> is fsynced or the sync failed.
    /// Then <see cref="Finish"/> gives the outcome.
    /// </summary>
    public void Start(LogSyncQueue queue, Action resume)
    {
        (_resume, _failure) = (resume, null);
        queue.Enqueue(this);
    }

    /// <summary>After the resume: throws the failure, if any (IOException, or ObjectDisposedException from a stopped queue); the filters are cleared either way.</summary>
    public void Finish()
    {
        Filters.Clear();
        if (_failure is { } failure)
        {
            ExceptionDispatchInfo.Throw(failure);
        }
    }

    /// <summary>Called by the sync thread once: null when every log is synced. Must not block: it runs the resume callback.</summary>
    public void Complete(Exception? failure)
    {
        _failure = failure;
        Action? resume = _resume;
        _resume = null;
        resume?.Invoke();
    }
}
