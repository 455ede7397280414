using EventFilter.Durability;

namespace EventFilter;

/// <summary>
/// Online rebuild at the same size: lines repaired to all ones answer "maybe" for every name until the filter is
/// rebuilt, so once they pass <see cref="StreamExistenceFilterOptions.AllOnesRebuildThreshold"/>, or when an operator
/// asks, a fresh file is built from the log beside the serving one, as a resize does. See docs/design.md, "Online rebuild".
/// </summary>
public sealed partial class StreamExistenceFilter
{
    private const int NoRebuild = -1;

    private int _besideBuild; // 1 while a resize or online rebuild owns the file beside the serving one
    private int _onlineRebuild = NoRebuild;

    /// <summary>Why the online rebuild under way was started; null when none is (a resize is <see cref="IsResizing"/>).</summary>
    public RebuildReason? OnlineRebuild => Volatile.Read(ref _onlineRebuild) is var reason and >= 0 ? (RebuildReason)reason : null;

    /// <summary>
    /// Rebuilds the filter from the log at its configured size while it keeps answering: a new file is caught up beside
    /// the serving one, then swapped in. Returns once swapped. After a crash it is not resumed; ask again.
    /// </summary>
    /// <exception cref="InvalidOperationException">The filter is not ready, or a resize or rebuild is already under way.</exception>
    public async Task RebuildAsync(CancellationToken cancellationToken)
    {
        if (_state != FilterState.Ready)
        {
            throw new InvalidOperationException($"The filter is {_state}; only a ready filter can be rebuilt online.");
        }

        if (!TryClaimBesideBuild())
        {
            throw new InvalidOperationException(IsResizing ? "A resize is under way; it builds a fresh file anyway." : "An online rebuild is already under way.");
        }

        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        try
        {
            await BuildBesideAsync(RebuildReason.Requested, "an operator asked for it", cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (error is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            _observer.BackgroundWorkFailed(_options.FilterPath, error);
            throw;
        }
    }

    private bool TryClaimBesideBuild() => Interlocked.CompareExchange(ref _besideBuild, 1, 0) == 0;

    private bool AllOnesBeyondThreshold(VerificationResult? verification, out string detail)
    {
        detail = "";
        if (verification is not { LinesChecked: > 0 } found)
        {
            return false;
        }

        double share = (double)found.AllOnesLines / found.LinesChecked;
        if (share <= _options.AllOnesRebuildThreshold)
        {
            return false;
        }

        detail = $"{found.AllOnesLines} of {found.LinesChecked} lines are all ones ({share:P2}), above the threshold of {_options.AllOnesRebuildThreshold:P2}; the old file serves until the new one has caught up";
        return true;
    }
}
