using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Telemetry;

/// <summary>eventfilterd's health, as the <c>eventfilterd.health</c> gauge reports it.</summary>
internal enum HealthStatus
{
    /// <summary>Not listening: starting, stopping, or the socket failed.</summary>
    Unhealthy = 0,

    /// <summary>Listening, but a storage operation (a checkpoint, a digest-log write, a layer) failed in the last minute.</summary>
    Degraded = 1,

    Healthy = 2,
}

/// <summary>
/// Whether the daemon is serving and whether its storage has failed lately. Every change is logged (HealthChanged,
/// checked at each checkpoint tick and when listening starts or stops) and the status is a gauge, so an operator sees
/// it in the log and in any metrics pipeline. See docs/daemon.md, "Telemetry".
/// </summary>
internal sealed class DaemonHealth(TimeProvider time, ILogger logger)
{
    /// <summary>How long one failure keeps the daemon degraded: a failing disk fails again within it, a blip does not.</summary>
    public static readonly TimeSpan DegradedFor = TimeSpan.FromMinutes(1);

    private readonly Lock _gate = new();
    private bool _listening;
    private DateTimeOffset _lastFailure = DateTimeOffset.MinValue;
    private string _lastFailureOperation = "";
    private HealthStatus? _reported;

    public HealthStatus Status => Evaluate().Status;

    /// <summary>The status with its reason in words, as INFO shows them.</summary>
    public (HealthStatus Status, string Reason) Now => Evaluate();

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
        (HealthStatus status, string reason) = Evaluate();
        lock (_gate)
        {
            if (_reported == status)
            {
                return;
            }

            _reported = status;
        }

        Log.HealthChanged(logger, status.ToString(), reason);
    }

    private (HealthStatus Status, string Reason) Evaluate()
    {
        lock (_gate)
        {
            if (!_listening)
            {
                return (HealthStatus.Unhealthy, "not listening");
            }

            return time.GetUtcNow() - _lastFailure < DegradedFor
                ? (HealthStatus.Degraded, $"{_lastFailureOperation} failed at {_lastFailure:O}")
                : (HealthStatus.Healthy, "listening, no storage failure in the last minute");
        }
    }
}
