namespace EventFilter.Daemon.Server;

/// <summary>
/// The connections being served, at most --max-clients of them: the listener adds and forgets them and aborts them at
/// a stop, and CLIENT LIST describes them.
/// </summary>
internal sealed class ConnectedClients
{
    private readonly HashSet<ClientConnection> _connections = [];

    /// <summary>Makes and adds a connection unless <paramref name="max"/> are served already (then null, and nothing is made).</summary>
    public ClientConnection? TryAdd(Func<ClientConnection> make, int max)
    {
        lock (_connections)
        {
            if (_connections.Count >= max)
            {
                return null;
            }

            ClientConnection connection = make();
            _connections.Add(connection);
            return connection;
        }
    }

    public void Remove(ClientConnection connection)
    {
        lock (_connections)
        {
            _connections.Remove(connection);
        }
    }

    public ClientConnection[] Snapshot()
    {
        lock (_connections)
        {
            return [.. _connections];
        }
    }
}
