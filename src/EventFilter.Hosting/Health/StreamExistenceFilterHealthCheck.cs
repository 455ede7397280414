using System.Globalization;
using Microsoft.Extensions.Diagnostics.HealthChecks;
using EventFilter.Hosting.Telemetry;

namespace EventFilter.Hosting.Health;

/// <summary>
/// The filter's health (docs/telemetry.md, section "Health"). Catching up is Degraded, not Unhealthy: lookups are
/// correct meanwhile ("maybe" sends them to the index), only slower, so a host need not be taken out of service.
/// </summary>
internal sealed class StreamExistenceFilterHealthCheck(HostedStreamExistenceFilter filter) : IHealthCheck
{
    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(Check());

    private HealthCheckResult Check()
    {
        var data = new Dictionary<string, object>
        {
            ["state"] = filter.State.ToString(),
        };
        if (filter.CheckpointPosition is { } checkpoint)
        {
            data["checkpointPosition"] = checkpoint;
        }

        // Corrupted lines = all-ones lines (repaired now or by an earlier start) + mismatched lines not repaired.
        long corrupted = filter.Observer.LastVerification?.CorruptedLines ?? 0;
        long foundNow = filter.Observer.LastVerification?.MismatchedLines ?? 0;
        data["corruptedLines"] = corrupted;
        data["allOnesLines"] = filter.Observer.LastVerification?.AllOnesLines ?? 0;

        // After Dispose the core reports Stopped, except a disabled filter, which stays Disabled: the service's flag covers both.
        if (filter.IsStopped || filter.State == FilterState.Stopped)
        {
            return HealthCheckResult.Unhealthy("stopped", data: data);
        }

        switch (filter.State)
        {
            case FilterState.Disabled:
                return HealthCheckResult.Healthy("disabled", data);

            case FilterState.Failed:
                return HealthCheckResult.Unhealthy($"failed: {filter.Failure?.Message ?? "unknown error"}", filter.Failure, data);

            case FilterState.Initializing when filter.Failure is { } openFailure:
                return HealthCheckResult.Unhealthy($"failed: {openFailure.Message}", openFailure, data);

            case FilterState.Initializing when filter.Observer.LogViolation is { } unavailable && filter.Observer.LogIsUnavailable:
                // A log that is down (a failover, a dropped connection) is retried and goes on by itself: lookups are
                // correct ("maybe") meanwhile, only slower.
                return HealthCheckResult.Degraded($"catching up, waiting for the log: {unavailable}", data: data);

            case FilterState.Initializing when filter.Observer.LogViolation is { } logViolation:
                // Lookups are still correct ("maybe"), but the catch-up cannot finish until the log is fixed.
                return HealthCheckResult.Unhealthy($"catching up, held by the log: {logViolation}", data: data);

            case FilterState.Initializing:
                double percent = filter.Observer.LastProgress?.Percent ?? 0;
                data["catchUpPercent"] = percent;
                return HealthCheckResult.Degraded(string.Create(CultureInfo.InvariantCulture, $"catching up: {percent:F0}%"), data: data);
        }

        // Ready. A follower's position and lag, and what holds it back: its answers stay correct for what it has read.
        data["readPosition"] = filter.ReadPosition;
        if (filter.FollowLag is { TotalSeconds: > 0 } lag)
        {
            data["followLagSeconds"] = lag.TotalSeconds;
        }

        // Only while behind: a run-time sign of a wrong end (docs/telemetry.md) is counted and logged, not a state.
        if (filter.FollowLag > TimeSpan.Zero && filter.Observer.LogViolation is { } followerTrouble)
        {
            return HealthCheckResult.Degraded($"following the log from position {filter.ReadPosition}, held by the log: {followerTrouble}", data: data);
        }

        if (filter.FollowLag > filter.MaxFollowLag)
        {
            return HealthCheckResult.Degraded(string.Create(CultureInfo.InvariantCulture, $"following the log, {filter.FollowLag.TotalSeconds:F0} s behind its end (more than {filter.MaxFollowLag.TotalSeconds:F0} s) at position {filter.ReadPosition}"), data: data);
        }

        // A failed resize, online rebuild or checkpoint leaves correct answers but needs an operator.
        if (filter.Failure is { } backgroundFailure)
        {
            return HealthCheckResult.Degraded($"background work failed (a resize, an online rebuild or catch-up's final checkpoint): {backgroundFailure.Message}", backgroundFailure, data);
        }

        if (filter.CheckpointFailure is { } checkpointFailure)
        {
            return HealthCheckResult.Degraded($"checkpoint failed: {checkpointFailure.Message}", checkpointFailure, data);
        }

        // Damage found at this start is Degraded for this run: the storage or a crash damaged the file, which an
        // operator should hear of. All-ones lines left by earlier repairs are not: they are safe (they answer "maybe")
        // and cost a few false positives, which the statistics show; a restart that finds nothing new is Healthy.
        if (foundNow > 0)
        {
            return HealthCheckResult.Degraded(string.Create(CultureInfo.InvariantCulture, $"{foundNow} corrupted lines found at start (set to all ones; below the rebuild threshold)"), data: data);
        }

        string serving = filter.IsResizing ? "ready (resizing)" : filter.OnlineRebuild is not null ? "ready (rebuilding online)" : "ready";
        return HealthCheckResult.Healthy(serving, data);
    }
}
