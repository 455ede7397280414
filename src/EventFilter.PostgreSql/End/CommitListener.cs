using EventFilter.PostgreSql.Telemetry;
using Microsoft.Extensions.Logging;
using Npgsql;

namespace EventFilter.PostgreSql.End;

/// <summary>
/// LISTENs on the table's channel on a connection of its own and reads the safe end when an appending process (this
/// one included) says it committed, so followers wake within a round trip instead of a poll. Notifications that arrive
/// while a reading runs wait in the connection and are taken together by the next wait. A lost connection is counted, logged once, and
/// opened again after a poll interval; the poll covers the gap.
/// </summary>
internal sealed class CommitListener(NpgsqlDataSource database, string channel, EndPoller reader, TimeSpan retryAfter, TimeProvider time, PostgreSqlMetrics metrics, ILogger logger)
{
    private bool _failing;

    public async Task RunAsync(CancellationToken stopping)
    {
        while (!stopping.IsCancellationRequested)
        {
            try
            {
                await ListenAsync(stopping).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stopping.IsCancellationRequested)
            {
                return;
            }
            catch (Exception error) when (error is NpgsqlException or TimeoutException or IOException)
            {
                metrics.Failed("listen", error);
                if (!_failing)
                {
                    _failing = true;
                    Log.ListenFailed(logger, channel, error.Message);
                }

                try
                {
                    await Task.Delay(retryAfter, time, stopping).ConfigureAwait(false);
                }
                catch (OperationCanceledException)
                {
                    return;
                }
            }
        }
    }

    private async Task ListenAsync(CancellationToken stopping)
    {
        await using NpgsqlConnection connection = await database.OpenConnectionAsync(stopping).ConfigureAwait(false);
        connection.Notification += (_, _) => metrics.Notified();
        await using (var listen = new NpgsqlCommand($"listen {Table.EventsTable.Quote(channel)}", connection))
        {
            await listen.ExecuteNonQueryAsync(stopping).ConfigureAwait(false);
        }

        if (_failing)
        {
            _failing = false;
            Log.ListenRecovered(logger, channel);
        }

        // Commits made before the LISTEN took effect sent notifications nobody here heard: read now.
        await reader.TryReadAsync(stopping).ConfigureAwait(false);
        while (true)
        {
            // One reading per wake: what it leaves unsettled (a transaction still in flight) the next commit's notification
            // settles, or the poll, or a rollback's own reading (PostgreSqlAppender).
            await connection.WaitAsync(stopping).ConfigureAwait(false);
            await reader.TryReadOnceAsync(stopping).ConfigureAwait(false);
        }
    }
}
