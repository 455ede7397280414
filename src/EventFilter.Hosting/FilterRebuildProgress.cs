using System.Diagnostics.CodeAnalysis;

namespace EventFilter.Hosting;

/// <summary>
/// An online rebuild under way: the serving file answers while a fresh one of the same size catches up from the log
/// beside it (docs/design.md, "Online rebuild").
/// </summary>
public sealed class FilterRebuildProgress
{
    internal FilterRebuildProgress(RebuildReason reason, double percent, TimeSpan? estimatedRemaining)
    {
        Reason = reason;
        Percent = percent;
        EstimatedRemaining = estimatedRemaining;
    }

    /// <summary>Why it started: <see cref="RebuildReason.AllOnesLines"/> or <see cref="RebuildReason.Requested"/>.</summary>
    public RebuildReason Reason { get; }

    /// <summary>How much of the log the fresh file has read, 0 to 100 (0 until its first progress report).</summary>
    public double Percent { get; }

    /// <summary>When the fresh file should have caught up; null until there is a rate to go by.</summary>
    public TimeSpan? EstimatedRemaining { get; }
}


/// <summary>
/// Online rebuild for operators (the server's <c>POST /filter/rebuild</c>); registered by <c>AddStreamExistenceFilter</c>.
/// It heals lines repaired to all ones, which answer "maybe" for every name, without downtime.
/// </summary>
public interface IFilterRebuildControl
{
    /// <summary>The online rebuild under way, or null when none is.</summary>
    FilterRebuildProgress? Rebuild { get; }

    /// <summary>
    /// Starts an online rebuild in the background, which the host's stop cancels (it is not resumed after a restart).
    /// Returns false, starting nothing, with the reason in words, when the filter is disabled, not ready, stopping,
    /// or already resizing or rebuilding.
    /// </summary>
    bool TryStartRebuild([NotNullWhen(false)] out string? refusal);
}
