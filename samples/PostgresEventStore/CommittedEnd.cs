using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// The log's end as the filter reads it: a position below which every record that will ever commit has committed.
/// <see cref="IStreamNameLog.EndPosition"/> is a synchronous property read on the filter's hot paths (every checkpoint,
/// every catch-up step), so it cannot run a query: it returns this cached value, which <see cref="RefreshAsync"/>
/// raises after each of the host's own commits and on <see cref="EndPoller"/>'s timer (for other writers' commits).
/// A cached value that lags is safe, only later; it never goes back.
/// </summary>
public abstract class CommittedEnd(NpgsqlDataSource database)
{
    // One refresh at a time: each reading builds on the one before it (see HighWaterMark).
    private readonly SemaphoreSlim _refreshing = new(1, 1);
    private TaskCompletionSource _advanced = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _value;

    /// <summary>The cached end: 0 until the first refresh.</summary>
    public long Value => Volatile.Read(ref _value);

    /// <summary>
    /// Reads the end once. A reading settles what earlier readings saw allocated, once their transactions have ended:
    /// to cover a commit just made, read twice.
    /// </summary>
    public async Task RefreshAsync(CancellationToken cancellationToken = default)
    {
        await _refreshing.WaitAsync(cancellationToken);
        try
        {
            await using NpgsqlConnection connection = await database.OpenConnectionAsync(cancellationToken);
            long end = await ReadAsync(connection, cancellationToken);
            if (end > _value)
            {
                Volatile.Write(ref _value, end);
                Interlocked.Exchange(ref _advanced, new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
            }
        }
        finally
        {
            _refreshing.Release();
        }
    }

    /// <summary>Completes once <see cref="Value"/> has reached <paramref name="position"/>.</summary>
    public async Task WhenReachedAsync(long position, CancellationToken cancellationToken)
    {
        while (true)
        {
            Task advanced = Volatile.Read(ref _advanced).Task; // taken before the check, so no raise is missed
            if (Value >= position)
            {
                return;
            }

            await advanced.WaitAsync(cancellationToken);
        }
    }

    /// <summary>One reading of the end over <paramref name="connection"/>; called one at a time.</summary>
    protected abstract Task<long> ReadAsync(NpgsqlConnection connection, CancellationToken cancellationToken);
}
