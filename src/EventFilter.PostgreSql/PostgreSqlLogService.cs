using System.Net.Sockets;
using EventFilter.PostgreSql.End;
using EventFilter.PostgreSql.Table;
using EventFilter.PostgreSql.Telemetry;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Npgsql;

namespace EventFilter.PostgreSql;

/// <summary>
/// Starts before the hosted filter and stops after it (<c>AddPostgreSqlStreamLog</c> puts it first): checks the table
/// and reads the end before the filter opens and reads it, then keeps the end moving (poll and listener) until the
/// filter has taken its final checkpoint.
/// </summary>
internal sealed class PostgreSqlLogService(EventsDatabase database, EventsTable table, SafeEnd end, EndPoller poller, PostgreSqlMetrics metrics, TimeProvider time, ILoggerFactory? loggers) : IHostedService, IDisposable
{
    private readonly CancellationTokenSource _stopping = new();
    private Task _running = Task.CompletedTask;

    public async Task StartAsync(CancellationToken cancellationToken)
    {
        try
        {
            await TableCheck.RunAsync(database.Source, table, cancellationToken).ConfigureAwait(false);
            await poller.ReadTwiceAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (PostgresException refused) when (refused.SqlState.StartsWith("28", StringComparison.Ordinal) || refused.SqlState == PostgresErrorCodes.InvalidCatalogName)
        {
            throw Unreachable(refused); // authentication, or no such database: the connection string's business
        }
        catch (Exception error) when (error is NpgsqlException and not PostgresException or SocketException or TimeoutException)
        {
            throw Unreachable(error);
        }

        ILogger logger = loggers?.CreateLogger(Log.Category) ?? Microsoft.Extensions.Logging.Abstractions.NullLogger.Instance;
        Log.TableChecked(logger, table.QualifiedName, table.Sequence, end.Value, table.Channel.Length == 0 ? "(off)" : table.Channel);
        List<Task> loops = [Task.Run(() => poller.RunAsync(_stopping.Token), CancellationToken.None)];
        if (table.Channel.Length > 0)
        {
            var listener = new CommitListener(database.Source, table.Channel, poller, table.Options.PollInterval, time, metrics, logger);
            loops.Add(Task.Run(() => listener.RunAsync(_stopping.Token), CancellationToken.None));
        }

        _running = Task.WhenAll(loops);
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        database.Stop(); // after the filter: what appends now would add to a closed filter
        await _stopping.CancelAsync().ConfigureAwait(false);
        await _running.WaitAsync(cancellationToken).ConfigureAwait(false);
    }

    public void Dispose() => _stopping.Dispose();

    private PostgreSqlStreamLogStartException Unreachable(Exception error) => new(
        PostgreSqlStreamLogStartException.UnreachableExitCode,
        $"The events table's database cannot be reached: {error.Message.ReplaceLineEndings(" ")} (check {table.Options.KeyPrefix}{nameof(PostgreSqlStreamLogOptions.ConnectionString)}, or the NpgsqlDataSource registered).",
        error);
}
