using EventFilter.Durability;
using EventFilter.Integrity;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Telemetry;

/// <summary>
/// What the core reports about each layer file, as log lines. Opening is Debug: every BF.RESERVE creates a layer, and
/// a line per create would drown the rest. Damage, rebuilds and failures are warnings or errors, and count as errors
/// in the metrics.
/// </summary>
internal sealed class LayerObserver(ILogger logger, DaemonMetrics metrics) : FilterObserver
{
    public override void Opened(string path, bool created, VerificationResult verification)
    {
        Log.LayerOpened(logger, path, created ? "created" : "opened", verification.LinesChecked, verification.CorruptedLines);
        if (verification.MismatchedLines > 0)
        {
            metrics.Error(DaemonMetrics.Operation.Verify);
            Log.LayerCorrupted(logger, path, verification.CorruptedLines, verification.RepairedLines);
        }
    }

    public override void RebuildStarted(string path, RebuildReason reason, string detail)
    {
        // A missing layer file is a new layer (or a first start after a crash mid-create), not damage.
        if (reason != RebuildReason.Missing)
        {
            metrics.Error(DaemonMetrics.Operation.Verify);
            Log.LayerRebuilding(logger, path, reason.ToString(), detail);
        }
    }

    public override void CheckpointIgnored(string path, string reason) => Log.LayerCheckpointUnusable(logger, path, "checkpoint ignored", reason);

    public override void JournalDamaged(string path, string detail) => Log.LayerCheckpointUnusable(logger, path, "journal damaged", detail);

    public override void BackgroundWorkFailed(string path, Exception error)
    {
        metrics.Error(DaemonMetrics.Operation.CatchUp);
        Log.LayerFailed(logger, path, error);
    }
}
