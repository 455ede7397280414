namespace EventFilter.Daemon.Server;

/// <summary>
/// Where a <see cref="ClientConnection"/> is in its life, read and changed on its loop's thread only. It moves
/// Serving, then (with --log-sync always, for each batch that added) Syncing and back; it may hang up while Syncing;
/// it ends Closed, from any phase, once.
/// </summary>
internal enum ConnectionPhase
{
    /// <summary>Watched by its loop: reading requests, or waiting for room to send its replies.</summary>
    Serving,

    /// <summary>Its batch waits for its logs' fsyncs: it reads and sends nothing until the loop resumes it.</summary>
    Syncing,

    /// <summary>It hung up (or failed) while Syncing: its socket is out of epoll already, and it closes when resumed.</summary>
    SyncingHungUp,

    /// <summary>Over: out of epoll, buffers back, socket closed; every later event or call is ignored.</summary>
    Closed,
}
