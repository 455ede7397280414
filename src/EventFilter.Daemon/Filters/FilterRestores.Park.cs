namespace EventFilter.Daemon.Filters;

/// <summary>
/// Restores whose client went away: parked, holding no descriptor, until a chunk from any connection opens them again
/// (<see cref="RestoreSession.Park"/>). See docs/daemon.md, "Backup and restore".
/// </summary>
internal sealed partial class FilterRestores
{
    /// <summary>
    /// The connection <paramref name="feeder"/> ended: each restore it fed last is parked, its files durable and closed,
    /// so that a client that went away holds no descriptor; a failure to park abandons it. Returns how many.
    /// </summary>
    public int Park(long feeder)
    {
        int parked = 0;
        foreach (RestoreSession session in Sessions())
        {
            lock (session.Gate)
            {
                if (session.IsOver || session.Feeder != feeder || session.Staged is null)
                {
                    continue;
                }

                try
                {
                    session.Park();
                    parked++;
                }
                catch (Exception e) when (e is IOException or UnauthorizedAccessException)
                {
                    Abandon(session);
                }
            }
        }

        return parked;
    }

    /// <summary>True when a restore not yet over was fed last by <paramref name="feeder"/>, without waiting for any chunk.</summary>
    public bool Feeds(long feeder)
    {
        lock (_restores)
        {
            foreach (RestoreSession session in _restores.Values)
            {
                if (session.Feeder == feeder)
                {
                    return true;
                }
            }
        }

        return false;
    }
}
