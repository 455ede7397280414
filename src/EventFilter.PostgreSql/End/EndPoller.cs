using EventFilter.PostgreSql.Telemetry;
using Microsoft.Extensions.Logging;
using Npgsql;

namespace EventFilter.PostgreSql.End;

/// <summary>
/// Reads the safe end every poll interval, whatever else moves it: a transaction that was in flight at every other
/// reading and has ended since, a notification lost, a listener reconnecting. A failed reading leaves the end where
/// it is (later, never wrong), is counted, and is logged once per outage, whoever read: the poll or the listener.
/// </summary>
internal sealed class EndPoller(SafeEnd end, TimeSpan interval, TimeProvider time, PostgreSqlMetrics metrics, ILogger logger)
{
    private int _failing;

    /// <summary>Whether the last reading left positions unsettled (<see cref="SafeEnd.Held"/>).</summary>
    public bool Held => end.Held;

    public async Task RunAsync(CancellationToken stopping)
    {
        while (!stopping.IsCancellationRequested)
        {
            try
            {
                await Task.Delay(interval, time, stopping).ConfigureAwait(false);
                await TryReadAsync(stopping).ConfigureAwait(false);
            }
            catch (OperationCanceledException) when (stopping.IsCancellationRequested)
            {
                return;
            }
        }
    }

    /// <summary>Reads the end (twice if the first reading left positions unsettled); a failure is counted and logged, not thrown.</summary>
    public Task TryReadAsync(CancellationToken cancellationToken) => TryAsync(ReadTwiceAsync, cancellationToken);

    /// <summary>Reads the end once; a failure is counted and logged, not thrown.</summary>
    public Task TryReadOnceAsync(CancellationToken cancellationToken) => TryAsync(end.RefreshAsync, cancellationToken);

    private async Task TryAsync(Func<CancellationToken, Task> read, CancellationToken cancellationToken)
    {
        try
        {
            await read(cancellationToken).ConfigureAwait(false);
            if (Interlocked.Exchange(ref _failing, 0) == 1)
            {
                Log.EndReadRecovered(logger, end.Value);
            }
        }
        catch (Exception error) when (error is NpgsqlException or TimeoutException or IOException && !cancellationToken.IsCancellationRequested)
        {
            metrics.Failed("end-read", error);
            if (Interlocked.Exchange(ref _failing, 1) == 0)
            {
                Log.EndReadFailed(logger, end.Value, error.Message);
            }
        }
    }

    // The first reading sees what is handed out and settles it when nothing older runs; else a second one may.
    public async Task ReadTwiceAsync(CancellationToken cancellationToken)
    {
        await end.RefreshAsync(cancellationToken).ConfigureAwait(false);
        if (end.Held)
        {
            await end.RefreshAsync(cancellationToken).ConfigureAwait(false);
        }
    }
}
