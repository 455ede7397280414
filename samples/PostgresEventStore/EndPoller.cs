namespace PostgresEventStore;

/// <summary>
/// Keeps the cached end moving when no commit of this host moves it: another process's appends, and a transaction of
/// this host's that was still running when its neighbours' commits refreshed the end. Its first readings happen at
/// start, before the filter (registered after it) opens and reads the end.
/// </summary>
public sealed class EndPoller(CommittedEnd end, TimeProvider time, ILogger<EndPoller> logger, TimeSpan? interval = null) : BackgroundService
{
    private readonly TimeSpan _interval = interval ?? TimeSpan.FromMilliseconds(100);

    public override async Task StartAsync(CancellationToken cancellationToken)
    {
        await ReadTwiceAsync(cancellationToken);
        await base.StartAsync(cancellationToken);
    }

    protected override async Task ExecuteAsync(CancellationToken stoppingToken)
    {
        while (!stoppingToken.IsCancellationRequested)
        {
            try
            {
                await Task.Delay(_interval, time, stoppingToken);
                await ReadTwiceAsync(stoppingToken);
            }
            catch (OperationCanceledException) when (stoppingToken.IsCancellationRequested)
            {
                return;
            }
            catch (Npgsql.NpgsqlException error)
            {
                logger.LogWarning(error, "Reading the events table's safe end failed; the filter's end stays at {End}", end.Value);
            }
        }
    }

    // The first reading sees what is allocated; the second settles it, if no transaction older than the first was running.
    private async Task ReadTwiceAsync(CancellationToken cancellationToken)
    {
        await end.RefreshAsync(cancellationToken);
        await end.RefreshAsync(cancellationToken);
    }
}
