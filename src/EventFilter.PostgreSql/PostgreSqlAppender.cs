using EventFilter.PostgreSql.End;
using EventFilter.PostgreSql.Table;
using EventFilter.PostgreSql.Telemetry;
using Npgsql;

namespace EventFilter.PostgreSql;

/// <summary>
/// Runs appending transactions over the events table the way the safe end and the filter need them: the transaction
/// takes its id before any position, the code adds each row to the filter before the commit, and after the commit the
/// processes over the table are notified (their listeners read the end; without notifications, this process reads it). A unique violation (23505: the filter had not yet heard of a
/// stream another process created, so its lookup was skipped) rolls the attempt back and runs the code again with
/// every stream answered "maybe". Registered by <c>AddPostgreSqlStreamLog</c>.
/// </summary>
public sealed class PostgreSqlAppender
{
    /// <summary>Attempts before a unique violation is thrown to the caller: each retry follows another writer's commit, so a few suffice.</summary>
    public const int MaxAttempts = 8;

    private readonly EventsDatabase _database;
    private readonly IStreamExistenceFilter _filter;
    private readonly EventsTable _table;
    private readonly EndPoller _end;
    private readonly PostgreSqlMetrics _metrics;

    internal PostgreSqlAppender(EventsDatabase database, IStreamExistenceFilter filter, EventsTable table, EndPoller end, PostgreSqlMetrics metrics)
    {
        _database = database;
        _filter = filter;
        _table = table;
        _end = end;
        _metrics = metrics;
    }

    /// <summary>
    /// Runs <paramref name="append"/> in a transaction and commits it; returns what it returned. Throw from it to roll
    /// back (a wrong expected version is better returned as a result, which still commits nothing if nothing was inserted).
    /// </summary>
    /// <typeparam name="T">What the append's code returns.</typeparam>
    /// <param name="append">Looks up, inserts, and calls <see cref="PostgreSqlAppend.Added"/> for each row inserted.</param>
    /// <param name="cancellationToken">Cancels before the commit; once committed, the append completes.</param>
    /// <returns>What <paramref name="append"/> returned from its committed attempt.</returns>
    public async Task<T> AppendAsync<T>(Func<PostgreSqlAppend, CancellationToken, Task<T>> append, CancellationToken cancellationToken = default)
    {
        ArgumentNullException.ThrowIfNull(append);
        for (int attempt = 1; ; attempt++)
        {
            try
            {
                return await AttemptAsync(append, attempt, cancellationToken).ConfigureAwait(false);
            }
            catch (PostgresException conflict) when (conflict.SqlState == PostgresErrorCodes.UniqueViolation && attempt < MaxAttempts)
            {
                _metrics.UniqueViolation(); // rolled back whole; its positions stay as gaps
            }
        }
    }

    private async Task<T> AttemptAsync<T>(Func<PostgreSqlAppend, CancellationToken, Task<T>> append, int attempt, CancellationToken cancellationToken)
    {
        if (_database.Stopped)
        {
            throw EventsDatabase.StoppedError();
        }

        NpgsqlConnection opened;
        try
        {
            opened = await _database.Source.OpenConnectionAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (ObjectDisposedException) when (_database.Stopped)
        {
            throw EventsDatabase.StoppedError(); // the stop came between the check and the open
        }

        await using NpgsqlConnection connection = opened;
        PostgreSqlAppend? scope = null;
        try
        {
            T result;
            await using (NpgsqlTransaction transaction = await connection.BeginTransactionAsync(cancellationToken).ConfigureAwait(false))
            {
                // The id before any position: the safe end relies on it (HighWaterMark).
                await using (var takeId = new NpgsqlCommand(EventsTable.TakeTransactionId, connection, transaction))
                {
                    await takeId.ExecuteNonQueryAsync(cancellationToken).ConfigureAwait(false);
                }

                scope = new PostgreSqlAppend(connection, transaction, _filter, attempt);
                try
                {
                    result = await append(scope, cancellationToken).ConfigureAwait(false);
                }
                finally
                {
                    scope.Finish();
                }

                await transaction.CommitAsync(cancellationToken).ConfigureAwait(false);
            }

            // Committed: whatever happens now, the append stands (whether or not the code inserted, the transaction's id
            // held the end while it ran). With notifications, every process's listener reads the end, this one's too;
            // without, this process reads it here and the others at their poll.
            scope = null;
            await (_table.Channel.Length > 0 ? NotifyAsync(connection) : _end.TryReadAsync(CancellationToken.None)).ConfigureAwait(false);
            return result;
        }
        finally
        {
            // Rolled back: if its id is what holds the end, read it again, or the end waits for the next commit or poll.
            if (scope is not null && _end.Held)
            {
                await _end.TryReadAsync(CancellationToken.None).ConfigureAwait(false);
            }
        }
    }

    private async Task NotifyAsync(NpgsqlConnection connection)
    {
        try
        {
            await using var notify = new NpgsqlCommand(EventsTable.Notify, connection) { Parameters = { new() { Value = _table.Channel } } };
            await notify.ExecuteNonQueryAsync(CancellationToken.None).ConfigureAwait(false);
        }
        catch (Exception error) when (error is NpgsqlException or TimeoutException or IOException)
        {
            _metrics.Failed("notify", error); // every process's poll covers it, this one's too
        }
    }
}
