using Microsoft.Extensions.Diagnostics.HealthChecks;

namespace EventLog.Server.Hosting;

/// <summary>
/// The engine's health: Healthy while it takes appends; Unhealthy when a write, fsync or index flush failed (it then
/// takes no more appends until restarted, and recovery repairs the log), or while it is not taking appends.
/// </summary>
internal sealed class EventLogHealthCheck(EngineHandle handle) : IHealthCheck
{
    /// <summary>The check's name in <c>GET /health</c>.</summary>
    public const string Name = "event-log";

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default)
    {
        if (!handle.IsOpen)
        {
            return Task.FromResult(HealthCheckResult.Unhealthy("not open"));
        }

        EventLogEngine engine = handle.Engine;
        var data = new Dictionary<string, object>
        {
            ["logEndPosition"] = engine.EndPosition,
            ["indexFiles"] = engine.Statistics.IndexFiles,
        };
        HealthCheckResult result = engine.Failure is { } failure
            ? HealthCheckResult.Unhealthy($"stopped by a failure: {failure.Message}", failure, data)
            : handle.AcceptingAppends
                ? HealthCheckResult.Healthy("accepting appends", data)
                : HealthCheckResult.Unhealthy("not accepting appends", data: data);
        return Task.FromResult(result);
    }
}
