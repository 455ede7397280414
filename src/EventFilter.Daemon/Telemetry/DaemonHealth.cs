using Microsoft.Extensions.Diagnostics.HealthChecks;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// Whether the daemon is serving and whether its storage has failed lately: Unhealthy while not listening (starting,
/// stopping), Degraded for <see cref="DegradedFor"/> after a failure counted in eventfilterd.errors, Healthy otherwise.
/// One evaluation answers everyone: the registered health check (HealthCheckService), INFO, the eventfilterd.health
/// gauge, and the HealthChanged line logged on each change (checked at each sync tick and when listening starts or
/// stops). See docs/daemon.md, "Telemetry".
/// </summary>
internal sealed class DaemonHealth(TimeProvider time, ILogger logger) : IHealthCheck
{
    /// <summary>The check's name in a health report.</summary>
    public const string CheckName = "eventfilterd";

    /// <summary>How long one failure keeps the daemon degraded: a failing disk fails again within it, a blip does not.</summary>
    public static readonly TimeSpan DegradedFor = TimeSpan.FromMinutes(1);

    private readonly Lock _gate = new();
    private bool _listening;
    private DateTimeOffset _lastFailure = DateTimeOffset.MinValue;
    private string _lastFailureOperation = "";
    private HealthStatus? _reported;

    /// <summary>The status with its reason in words (the description), as INFO and the health check show them.</summary>
    public HealthCheckResult Now => Evaluate();

    public Task<HealthCheckResult> CheckHealthAsync(HealthCheckContext context, CancellationToken cancellationToken = default) =>
        Task.FromResult(Evaluate());

    /// <summary>True between the sockets' bind and the start of the stop.</summary>
    public bool Listening
    {
        get
        {
            lock (_gate)
            {
                return _listening;
            }
        }
    }

    public void SetListening(bool listening)
    {
        lock (_gate)
        {
            _listening = listening;
        }

        Report();
    }

    public void Failed(string operation)
    {
        lock (_gate)
        {
            _lastFailure = time.GetUtcNow();
            _lastFailureOperation = operation;
        }
    }

    /// <summary>Logs the status when it differs from the one last logged.</summary>
    public void Report()
    {
        HealthCheckResult now = Evaluate();
        lock (_gate)
        {
            if (_reported == now.Status)
            {
                return;
            }

            _reported = now.Status;
        }

        Log.HealthChanged(logger, now.Status.ToString(), now.Description!);
    }

    private HealthCheckResult Evaluate()
    {
        lock (_gate)
        {
            if (!_listening)
            {
                return HealthCheckResult.Unhealthy("not listening");
            }

            return time.GetUtcNow() - _lastFailure < DegradedFor
                ? HealthCheckResult.Degraded($"{_lastFailureOperation} failed at {_lastFailure:O}")
                : HealthCheckResult.Healthy("listening, no storage failure in the last minute");
        }
    }
}
