using EventFilter;
using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// Appends a group of appends in one transaction. Each stream's version is looked up only where the filter cannot say
/// the stream is new, all in one query; the appends are checked against their expected versions in order (a stream
/// twice in the group: the second sees the first's events); each event is added to the filter, with its record's end,
/// before the commit. A unique violation (23505: a writer the lookup did not see took the version first) fails only
/// the appends it makes wrong: the group is tried again, this time looking every stream up.
/// </summary>
public sealed class GroupCommit(NpgsqlDataSource database, IStreamExistenceFilter filter, CommittedEnd end)
{
    // Each retry follows a commit by another writer that the fresh lookup sees, so a few suffice; more is a livelock.
    private const int MaxAttempts = 8;

    private long _uniqueViolations;

    /// <summary>Groups tried again after a unique violation, since the start.</summary>
    public long UniqueViolations => Interlocked.Read(ref _uniqueViolations);

    /// <summary>Appends what it can of <paramref name="appends"/>; one result per append, in order.</summary>
    public async Task<AppendResult[]> CommitAsync(IReadOnlyList<Append> appends, CancellationToken cancellationToken = default)
    {
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                var transaction = new AppendTransaction(appends, trustFilter: attempt == 1);
                await using NpgsqlConnection connection = await database.OpenConnectionAsync(cancellationToken);
                await transaction.RunAsync(connection, filter, cancellationToken);
                if (transaction.HighestPosition > 0)
                {
                    await RefreshEndAsync();
                }

                return transaction.Results;
            }
            catch (PostgresException conflict) when (conflict.SqlState == PostgresErrorCodes.UniqueViolation && attempt < MaxAttempts)
            {
                // Rolled back whole (the transaction ended with the failed statement); its positions stay as gaps.
                Interlocked.Increment(ref _uniqueViolations);
            }
        }
    }

    // Two readings: the first sees this commit's positions allocated, the second settles them unless a transaction
    // older than the first reading is still running (then a later commit's readings, or the poller's, settle them).
    // The commit is done whatever this says: a failed reading only leaves the end to the poller.
    private async Task RefreshEndAsync()
    {
        try
        {
            await end.RefreshAsync();
            await end.RefreshAsync();
        }
        catch (NpgsqlException)
        {
            // EndPoller reads it again within its interval, and logs if the database stays unreachable.
        }
    }
}
