using EventFilter.Daemon.Filters;

namespace EventFilter.Daemon.Server;

/// <summary>
/// The group commit of --log-sync always: connections whose batch wrote to digest logs queue a <see cref="LogSyncWait"/>,
/// and one thread fsyncs each filter named by the waiting batches once, then resumes them all. A
/// connection never holds a thread while its batch waits for the disk, and the adds of every connection that wrote
/// before a round share that round's fsyncs. See docs/daemon-design.md, "Durability".
/// </summary>
internal sealed class LogSyncQueue : IDisposable
{
    private readonly object _gate = new();
    private readonly Thread _thread;
    private List<LogSyncWait> _queued = [];
    private List<LogSyncWait> _syncing = [];
    // The filters of one round, each fsynced once whichever batches named it, and the failure of each that failed.
    private readonly HashSet<NamedFilter> _round = [];
    private readonly Dictionary<NamedFilter, IOException> _failed = [];
    private bool _stopping;

    public LogSyncQueue()
    {
        _thread = new Thread(Run) { IsBackground = true, Name = "eventfilterd log sync" };
        _thread.Start();
    }

    /// <summary>Queues <paramref name="wait"/>, whose filters' logs the caller has written; it completes once they are fsynced.</summary>
    public void Enqueue(LogSyncWait wait)
    {
        lock (_gate)
        {
            if (_stopping)
            {
                wait.Complete(new ObjectDisposedException(nameof(LogSyncQueue)));
                return;
            }

            _queued.Add(wait);
            if (_queued.Count == 1)
            {
                Monitor.Pulse(_gate);
            }
        }
    }

    /// <summary>Ends the thread after the rounds already queued; a batch queued later is failed, so nothing unsynced is acknowledged.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            _stopping = true;
            Monitor.Pulse(_gate);
        }

        _thread.Join();
    }

    private void Run()
    {
        while (TakeRound())
        {
            foreach (LogSyncWait wait in _syncing)
            {
                foreach (NamedFilter filter in wait.Filters)
                {
                    if (_round.Add(filter) && Sync(filter) is { } failure)
                    {
                        _failed.Add(filter, failure);
                    }
                }
            }

            foreach (LogSyncWait wait in _syncing)
            {
                wait.Complete(FirstFailure(wait));
            }

            _syncing.Clear();
            _round.Clear();
            _failed.Clear();
        }
    }

    /// <summary>Waits for queued batches and takes them all as one round; false once stopping with none queued.</summary>
    private bool TakeRound()
    {
        lock (_gate)
        {
            while (_queued.Count == 0)
            {
                if (_stopping)
                {
                    return false;
                }

                Monitor.Wait(_gate);
            }

            (_queued, _syncing) = (_syncing, _queued);
            return true;
        }
    }

    private static IOException? Sync(NamedFilter filter)
    {
        try
        {
            filter.SyncLog();
            return null;
        }
        catch (ObjectDisposedException)
        {
            // Deleted meanwhile (DEL, FLUSHALL): nothing of it is left to make durable.
            return null;
        }
        catch (IOException e)
        {
            return e;
        }
    }

    private IOException? FirstFailure(LogSyncWait wait)
    {
        foreach (NamedFilter filter in wait.Filters)
        {
            if (_failed.TryGetValue(filter, out IOException? failure))
            {
                return failure;
            }
        }

        return null;
    }
}
