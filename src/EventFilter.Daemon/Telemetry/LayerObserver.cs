using System.Diagnostics.Metrics;
using EventFilter.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// What the core reports about each layer file, through EventFilter.Hosting's observer: the same log lines (category
/// EventFilter, the same event ids and EventNames) and the same instruments (meter EventFilter) as a hosted filter.
/// Opening and creating are Debug here, since a filter's first add and each layer its chain grows create a file. On
/// top, damage counts in eventfilterd.errors as <c>verify</c>, which degrades the daemon's health for a minute
/// (docs/daemon.md, "Telemetry").
/// </summary>
internal sealed class LayerObserver(ILoggerFactory loggerFactory, IMeterFactory meterFactory, DaemonMetrics metrics)
    : TelemetryObserver(loggerFactory, meterFactory, LogLevel.Debug)
{
    public override void Opened(string path, bool created, VerificationResult verification)
    {
        base.Opened(path, created, verification);
        if (verification.MismatchedLines > 0)
        {
            metrics.Error(DaemonMetrics.Operation.Verify);
        }
    }

    public override void RebuildStarted(string path, RebuildReason reason, string detail)
    {
        base.RebuildStarted(path, reason, detail);

        // A missing layer file is a new layer (or a first start after a crash mid-create), not damage.
        if (reason != RebuildReason.Missing)
        {
            metrics.Error(DaemonMetrics.Operation.Verify);
        }
    }
}
