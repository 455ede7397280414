using EventFilter;
using EventLog.Server.Logging;

namespace EventLog.Server.Hosting;

/// <summary>
/// The hosted service registered after the filter's: starts appends with the host's filter once the filter is open
/// (docs/design.md, "Host contract", steps 1-2), and, stopping before the filter does, stops appends before the
/// filter's final checkpoint (step 5). See docs/server.md, "Start and stop".
/// </summary>
internal sealed class EngineStarter(EngineHandle handle, IStreamExistenceFilter filter, ILogger<EngineStarter> logger) : IHostedService
{
    public Task StartAsync(CancellationToken cancellationToken)
    {
        handle.Engine.Start(filter);
        handle.AcceptingAppends = true;
        Log.AppendsOpen(logger, Describe(filter.State));
        return Task.CompletedTask;
    }

    public async Task StopAsync(CancellationToken cancellationToken)
    {
        handle.AcceptingAppends = false;

        // Commits every append already queued; the filter's hosted service, stopping next, takes the final checkpoint.
        await handle.Engine.StopAsync().ConfigureAwait(false);
        Log.AppendsStopped(logger, handle.EndPosition);
    }

    /// <summary>The filter's state in a few words, for the start-up lines.</summary>
    public static string Describe(FilterState state) => state switch
    {
        FilterState.Ready => "ready",
        FilterState.Initializing => "catching up from the log",
        FilterState.Disabled => "disabled by size 0",
        FilterState.Failed => "failed, see above",
        _ => "stopped",
    };
}
