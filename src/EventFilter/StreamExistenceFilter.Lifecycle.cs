using EventFilter.Durability;

namespace EventFilter;

/// <summary>
/// Open, catch-up, online rebuild and shutdown. See docs/design.md, sections "Open sequence", "Resize" and
/// "Online rebuild". The filter's state lives here: every field of this file is assigned in this file only.
/// </summary>
public sealed partial class StreamExistenceFilter
{
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private volatile FilterState _state = FilterState.Initializing;

    /// <summary>
    /// Opens, verifies and repairs the filter file, or rebuilds it when it is missing, unreadable or too corrupted.
    /// When the file was made for another size, it keeps serving and <see cref="CatchUpAsync"/> builds the new size
    /// beside it. With size 0 nothing is opened and the filter answers "maybe" for ever.
    /// </summary>
    /// <exception cref="IOException">The data directory or file cannot be used (permissions, a full disk, another process holding it).</exception>
    public void Open()
    {
        string path = _options.FilterPath;
        if (_options.IsDisabled)
        {
            // A checkpoint left from when the filter was on would vouch for appends made while it was off.
            if (Directory.Exists(_options.DataDirectory))
            {
                CheckpointFile.Delete(CheckpointFile.PathFor(path));
                Journal.JournalFiles.Delete(path); // its commits carry positions too
            }

            _state = FilterState.Disabled;
            _ready.TrySetResult();
            return;
        }

        Directory.CreateDirectory(_options.DataDirectory);
        ResizeFiles.RecoverInterruptedSwap(path);
        long logEnd = _log.EndPosition;
        FilterFileOptions configured = _options.ToFileOptions(_options.SizeBytes);
        CheckpointedFilter serving;
        try
        {
            serving = FilterOpener.OpenOrRebuild(path, configured, configured, logEnd, _observer);
        }
        catch (FilterSizeMismatchException mismatch)
        {
            // Serve from the old size while the new one is built; if the old file is beyond repair it is rebuilt at the new size.
            serving = FilterOpener.OpenOrRebuild(path, _options.ToFileOptions(mismatch.FileSizeBytes), configured, logEnd, _observer);
        }

        _files.Open(serving);
        _besideBuild.NoteOpened(serving.File);
    }

    /// <summary>
    /// Catches up from the checkpoint to the log's end, then becomes ready; then, if the size changed, builds the new
    /// file from the log while the old one serves, and swaps. With <see cref="StreamExistenceFilterOptions.FollowLog"/>
    /// it then follows the log until cancelled. Run it in the background after <see cref="Open"/>; a log that throws
    /// or breaks its rules is retried, never the end of it.
    /// </summary>
    public async Task CatchUpAsync(CancellationToken cancellationToken)
    {
        if (_state == FilterState.Disabled)
        {
            return;
        }

        CheckpointedFilter serving = _files.Serving ?? throw new InvalidOperationException("Call Open before CatchUpAsync.");

        // Return to the caller at once: a log that answers synchronously would otherwise run the whole catch-up
        // (and any resize) inside this call, blocking the host that meant to start it in the background.
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        try
        {
            // Ready as soon as every durable name is in, not after the final checkpoint: that one only spares the next
            // start a re-read, and writing most of a large file takes as long as the catch-up's adds.
            CatchUpProgress caughtUp = await _catchUp.RunAsync(serving, cancellationToken, caughtUp: BecomeReady).ConfigureAwait(false);
            if (_options.FollowLog)
            {
                await FollowAsync(caughtUp.Position, cancellationToken).ConfigureAwait(false);
                return;
            }

            await _besideBuild.RunDueAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (OperationCanceledException) when (cancellationToken.IsCancellationRequested)
        {
            _ready.TrySetCanceled(cancellationToken);
            throw;
        }
        catch (Exception error)
        {
            // The observer hears of the failure before anyone can see the Failed state or the faulted WhenReady,
            // so a host's health check that reads the failure from it never finds the state without the reason.
            _observer.BackgroundWorkFailed(_options.FilterPath, error);
            if (_state != FilterState.Ready)
            {
                _state = FilterState.Failed;
            }

            _ready.TrySetException(error);
            throw;
        }
    }

    /// <summary>
    /// Follows the log until cancelled, beside a resize or rebuild that is due: the follower keeps the serving file
    /// current meanwhile. A failed build is reported and the old file serves on, as without following; the follower goes on.
    /// </summary>
    private async Task FollowAsync(long from, CancellationToken cancellationToken)
    {
        Task following = _follower.RunAsync(from, cancellationToken);
        try
        {
            await _besideBuild.RunDueAsync(cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (error is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            _observer.BackgroundWorkFailed(_options.FilterPath, error);
        }

        await following.ConfigureAwait(false);
    }

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

        if (!_besideBuild.TryClaim())
        {
            throw new InvalidOperationException(IsResizing ? "A resize is under way; it builds a fresh file anyway." : "An online rebuild is already under way.");
        }

        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        try
        {
            await _besideBuild.BuildAsync(RebuildReason.Requested, "an operator asked for it", cancellationToken).ConfigureAwait(false);
        }
        catch (Exception error) when (error is not OperationCanceledException || !cancellationToken.IsCancellationRequested)
        {
            _observer.BackgroundWorkFailed(_options.FilterPath, error);
            throw;
        }
    }

    /// <summary>
    /// Unmaps and closes the files. Does not checkpoint: call <see cref="Checkpoint"/> first. The host must have
    /// stopped calling the filter and cancelled and awaited <see cref="CatchUpAsync"/>.
    /// </summary>
    public void Dispose()
    {
        lock (_checkpointGate)
        {
            if (_state != FilterState.Disabled)
            {
                _state = FilterState.Stopped;
            }

            _files.Dispose();
        }
    }

    private void BecomeReady(CatchUpProgress done)
    {
        lock (_checkpointGate)
        {
            // Under the lock, as every write of the contract's positions: a truncation must not be overtaken.
            _contract.Read(done.Position);
        }

        _state = FilterState.Ready;
        _ready.TrySetResult();
        _observer.CatchUpCompleted(done);
    }
}
