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
internal sealed class LayerObserver : TelemetryObserver
{
    private readonly DaemonMetrics _metrics;
    private readonly StartQuietLogs _logs;
    // Checkpoints ignored since StartOpening, or -1 outside a start: a crash leaves one per layer that grew since its
    // last checkpoint (thousands with many filters), an expected cost told in one line, not a warning each.
    private int _ignoredAtStart = -1;

    public LayerObserver(ILoggerFactory loggerFactory, IMeterFactory meterFactory, DaemonMetrics metrics)
        : this(new StartQuietLogs(loggerFactory), meterFactory, metrics)
    {
    }

    private LayerObserver(StartQuietLogs logs, IMeterFactory meterFactory, DaemonMetrics metrics)
        : base(logs, meterFactory, LogLevel.Debug)
    {
        _logs = logs;
        _metrics = metrics;
    }

    /// <summary>A start opens the filters from here on: ignored checkpoints are counted, not logged one by one.</summary>
    public void StartOpening()
    {
        Volatile.Write(ref _ignoredAtStart, 0);
        _logs.Quiet = true;
    }

    /// <summary>The start opened them: one Information line (120) if any checkpoint was ignored.</summary>
    public void StartOpened(ILogger logger)
    {
        _logs.Quiet = false;
        int ignored = Interlocked.Exchange(ref _ignoredAtStart, -1);
        if (ignored > 0)
        {
            Log.CheckpointsIgnoredAtStart(logger, ignored);
        }
    }

    public override void CheckpointIgnored(string path, string reason)
    {
        if (Volatile.Read(ref _ignoredAtStart) >= 0)
        {
            Interlocked.Increment(ref _ignoredAtStart);
        }

        base.CheckpointIgnored(path, reason); // counted on the instrument; its line is dropped during a start
    }

    public override void Opened(string path, bool created, VerificationResult verification)
    {
        base.Opened(path, created, verification);
        if (verification.MismatchedLines > 0)
        {
            _metrics.Error(DaemonMetrics.Operation.Verify);
        }
    }

    public override void RebuildStarted(string path, RebuildReason reason, string detail)
    {
        base.RebuildStarted(path, reason, detail);

        // A missing layer file is a new layer (or a first start after a crash mid-create), not damage.
        if (reason != RebuildReason.Missing)
        {
            _metrics.Error(DaemonMetrics.Operation.Verify);
        }
    }
}
