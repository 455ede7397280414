namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// The running totals INFO reports as Redis does (total_commands_processed, total_connections_received, ...): the
/// meter's counters cannot be read back, so <see cref="DaemonMetrics"/> adds to these as it adds to them. Also the
/// last sync tick's time and outcome, which stand in for Redis's last save (docs/daemon.md, "INFO").
/// </summary>
internal sealed class ServerTotals(TimeProvider time)
{
    private long _commands;
    private long _itemsAdded;
    private long _connections;
    private long _refused;
    private long _authFailures;
    private long _bytesReceived;
    private long _bytesSent;
    private long _lastSyncUnixSeconds = time.GetUtcNow().ToUnixTimeSeconds();
    private int _lastSyncFailed;
    private long _itemsAddedAtLastSync;
    private long _opsPerSecond;
    private long _commandsAtLastSample;
    private long _lastSampleTimestamp = time.GetTimestamp();

    /// <summary>When the daemon started, for uptime_in_seconds.</summary>
    public DateTimeOffset Started { get; } = time.GetUtcNow();

    /// <summary>The clock <see cref="Started"/> was read from, for INFO's time now.</summary>
    public TimeProvider Time => time;

    public long Commands => Volatile.Read(ref _commands);

    public long Connections => Volatile.Read(ref _connections);

    public long Refused => Volatile.Read(ref _refused);

    public long AuthFailures => Volatile.Read(ref _authFailures);

    public long BytesReceived => Volatile.Read(ref _bytesReceived);

    public long BytesSent => Volatile.Read(ref _bytesSent);

    /// <summary>Unix seconds of the last sync tick that made everything durable (the start, before the first).</summary>
    public long LastSyncUnixSeconds => Volatile.Read(ref _lastSyncUnixSeconds);

    public bool LastSyncFailed => Volatile.Read(ref _lastSyncFailed) != 0;

    /// <summary>Items sent to adds since the last successful sync tick: Redis's rdb_changes_since_last_save.</summary>
    public long ItemsAddedSinceSync => Math.Max(0, Volatile.Read(ref _itemsAdded) - Volatile.Read(ref _itemsAddedAtLastSync));

    /// <summary>Commands per second over the last sync interval (Redis samples every 100 ms; we do at each tick).</summary>
    public long OpsPerSecond => Volatile.Read(ref _opsPerSecond);

    public void Ran(long commands, long added)
    {
        Interlocked.Add(ref _commands, commands);
        Interlocked.Add(ref _itemsAdded, added);
    }

    public void Connected() => Interlocked.Increment(ref _connections);

    public void Refuse() => Interlocked.Increment(ref _refused);

    public void AuthFailed() => Interlocked.Increment(ref _authFailures);

    public void Received(int bytes) => Interlocked.Add(ref _bytesReceived, bytes);

    public void Sent(int bytes) => Interlocked.Add(ref _bytesSent, bytes);

    /// <summary>Called by the checkpointer at the end of each tick, on its one thread.</summary>
    public void Synced(long itemsAddedBefore, bool failed)
    {
        long commands = Commands;
        long now = time.GetTimestamp();
        double seconds = time.GetElapsedTime(_lastSampleTimestamp, now).TotalSeconds;
        Volatile.Write(ref _opsPerSecond, seconds > 0 ? (long)((commands - _commandsAtLastSample) / seconds) : 0);
        _commandsAtLastSample = commands;
        _lastSampleTimestamp = now;

        Volatile.Write(ref _lastSyncFailed, failed ? 1 : 0);
        if (!failed)
        {
            Volatile.Write(ref _itemsAddedAtLastSync, itemsAddedBefore);
            Volatile.Write(ref _lastSyncUnixSeconds, time.GetUtcNow().ToUnixTimeSeconds());
        }
    }

    /// <summary>Items sent to adds so far; read before a tick starts, so that adds during it count as unsynced.</summary>
    public long ItemsAdded => Volatile.Read(ref _itemsAdded);
}
