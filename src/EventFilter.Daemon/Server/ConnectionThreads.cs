namespace EventFilter.Daemon.Server;

/// <summary>
/// The threads that serve connections, one each, kept for reuse: a thread whose client left waits a while for the
/// next connection, so a client that reconnects often is handed a parked thread (a futex wake) instead of paying for a
/// new one (docs/daemon.md, "Measured": reconnect).
/// </summary>
/// <param name="ended">Called on the connection's thread once it has ended, before the thread parks.</param>
internal sealed class ConnectionThreads(Action<ClientConnection> ended)
{
    /// <summary>How long a thread with no connection stays parked before it ends.</summary>
    private static readonly TimeSpan IdleTimeout = TimeSpan.FromSeconds(30);

    private readonly object _gate = new();
    private readonly Queue<ClientConnection> _waiting = new();
    private int _idle;

    /// <summary>Serves <paramref name="connection"/> on a parked thread when there is one, else on a new thread.</summary>
    public void Serve(ClientConnection connection)
    {
        lock (_gate)
        {
            // Each queued connection needs a parked thread of its own that has not yet taken one.
            if (_idle > _waiting.Count)
            {
                _waiting.Enqueue(connection);
                Monitor.Pulse(_gate);
                return;
            }
        }

        new Thread(() => Work(connection)) { IsBackground = true, Name = "eventfilterd client" }.Start();
    }

    private void Work(ClientConnection first)
    {
        for (ClientConnection? next = first; next is not null; next = Park())
        {
            next.Run();
            ended(next);
        }
    }

    /// <summary>Waits for the next connection; null when none came within <see cref="IdleTimeout"/>, and the thread ends.</summary>
    private ClientConnection? Park()
    {
        lock (_gate)
        {
            _idle++;
            try
            {
                while (_waiting.Count == 0)
                {
                    if (!Monitor.Wait(_gate, IdleTimeout) && _waiting.Count == 0)
                    {
                        return null;
                    }
                }

                return _waiting.Dequeue();
            }
            finally
            {
                _idle--;
            }
        }
    }
}
