using EventLog.Server.Logging;

namespace EventLog.Server.Hosting;

/// <summary>
/// The first hosted service: opens the engine (recovers the log, rebuilds the index) before the filter's hosted service
/// opens the filter, which reads the log's end; being first, it is also the last to stop, closing the log after the
/// filter's final checkpoint. See docs/server.md, "Start and stop".
/// </summary>
internal sealed class EngineOpener(EngineHandle handle, ServerSettings settings, ILogger<EngineOpener> logger) : IHostedService
{
    public async Task StartAsync(CancellationToken cancellationToken)
    {
        Log.OpeningLog(logger, settings.DataDirectory);
        long started = settings.Engine.TimeProvider.GetTimestamp();

        // The server already holds server.lock (ServerApp.Build); the engine takes its own lock on log/ and index/.
        EventLogEngine engine;
        try
        {
            engine = await EventLogEngine.OpenAsync(settings.Engine, cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (ExitCodes.IsKnownCause(error))
        {
            // The host's own report of it is left out of the log (SerilogSetup): this is its one line.
            Log.OpenFailed(logger, settings.DataDirectory, error.Message);
            Log.OpenFailedDetail(logger, error);
            throw;
        }

        handle.Opened(engine);

        LogRecovery log = engine.LogRecovery;
        IndexRecovery index = engine.IndexRecovery;
        if (log.TruncatedBytes > 0)
        {
            Log.TornTailCut(logger, log.TruncatedBytes, log.End);
        }

        if (index.DiscardedReason is { } reason)
        {
            Log.IndexDiscarded(logger, reason);
        }

        long elapsed = (long)settings.Engine.TimeProvider.GetElapsedTime(started).TotalMilliseconds;
        Log.LogOpened(logger, elapsed, log.Segments, log.End, engine.Statistics.IndexFiles, index.ReplayedRecords);
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        if (!handle.IsOpen)
        {
            return;
        }

        long end = handle.EndPosition;
        await handle.DisposeAsync().ConfigureAwait(false);
        Log.LogClosed(logger, end);
    }
}
