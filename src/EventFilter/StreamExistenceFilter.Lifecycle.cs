using EventFilter.Durability;

namespace EventFilter;

/// <summary>Open, catch-up, resize and shutdown. See docs/design.md, sections "Open sequence" and "Resize".</summary>
public sealed partial class StreamExistenceFilter
{
    private bool _resizePending;
    private bool _rebuildPending;
    private string _rebuildDetail = "";
    private CheckpointedFilter? _parked; // a new file whose build failed or was cancelled; guarded by _checkpointGate

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
        try
        {
            _serving = FilterOpener.OpenOrRebuild(path, configured, configured, logEnd, _observer);
        }
        catch (FilterSizeMismatchException mismatch)
        {
            // Serve from the old size while the new one is built; if the old file is beyond repair it is rebuilt at the new size.
            _serving = FilterOpener.OpenOrRebuild(path, _options.ToFileOptions(mismatch.FileSizeBytes), configured, logEnd, _observer);
        }

        _resizePending = _serving.File.Header.SizeBytes != _options.SizeBytes;
        if (_resizePending)
        {
            _observer.ResizeStarted(path, _serving.File.Header.SizeBytes, _options.SizeBytes);
        }
        else
        {
            // An online rebuild a restart interrupted is not resumed: the check below starts a new one if still due.
            ResizeFiles.Discard(path);
            _rebuildPending = AllOnesBeyondThreshold(_serving.File.Verification, out _rebuildDetail);
        }
    }

    /// <summary>
    /// Catches up from the checkpoint to the log's end, then becomes ready; then, if the size changed, builds the new
    /// file from the log while the old one serves, and swaps. Run it in the background after <see cref="Open"/>.
    /// </summary>
    public async Task CatchUpAsync(CancellationToken cancellationToken)
    {
        if (_state == FilterState.Disabled)
        {
            return;
        }

        CheckpointedFilter serving = _serving ?? throw new InvalidOperationException("Call Open before CatchUpAsync.");

        // Return to the caller at once: a log that answers synchronously would otherwise run the whole catch-up
        // (and any resize) inside this call, blocking the host that meant to start it in the background.
        await Task.CompletedTask.ConfigureAwait(ConfigureAwaitOptions.ForceYielding);
        try
        {
            // Ready as soon as every durable name is in, not after the final checkpoint: that one only spares the next
            // start a re-read, and writing most of a large file it took as long as the catch-up's adds (issue 12).
            await _catchUp.RunAsync(serving, cancellationToken, caughtUp: BecomeReady).ConfigureAwait(false);
            if ((_resizePending || _rebuildPending) && TryClaimBesideBuild())
            {
                await BuildBesideAsync(_resizePending ? null : RebuildReason.AllOnesLines, _rebuildDetail, cancellationToken).ConfigureAwait(false);
            }
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

    // A resize (reason null) or an online rebuild at the same size: a new file of the configured size is built from
    // the log beside the serving one, which answers until the swap. The caller has claimed the one build allowed.
    private async Task BuildBesideAsync(RebuildReason? reason, string detail, CancellationToken cancellationToken)
    {
        string path = _options.FilterPath;
        Volatile.Write(ref _onlineRebuild, reason is { } why ? (int)why : NoRebuild);
        if (reason is { } started)
        {
            _observer.RebuildStarted(path, started, detail);
        }

        CheckpointedFilter? building = null;
        try
        {
            building = OpenBesideFile(path);

            // From here on every host add reaches the new file too. An add that missed it kept its record's end in the
            // serving file before it looked: the process-wide barrier makes every such end visible to the read below
            // (the add's side needs no fence of its own), so either the add saw the new file or its end is waited for.
            _building = building;
            Interlocked.MemoryBarrierProcessWide();
            long addedEnd = _serving!.File.HighestRecordEnd;
            CatchUpProgress built = await _catchUp.RunAsync(building, cancellationToken, addedEnd).ConfigureAwait(false);
            Swap(path, building, built.Position);
            building = null;
        }
        finally
        {
            lock (_checkpointGate)
            {
                if (building is not null)
                {
                    // Failed or cancelled: the old file goes on serving. An add may still be writing to the new file,
                    // so it stays open, parked, and the next attempt resumes from its checkpoint: every record past
                    // that is read again, and every name added while it was published is in it.
                    _building = null;
                    _parked = building;
                }

                Volatile.Write(ref _onlineRebuild, NoRebuild);
                Volatile.Write(ref _besideBuild, 0);
            }
        }

        if (reason is { } done)
        {
            _observer.OnlineRebuildCompleted(path, done);
        }
        else
        {
            _observer.ResizeCompleted(path, _options.SizeBytes);
        }
    }

    private CheckpointedFilter OpenBesideFile(string path)
    {
        lock (_checkpointGate)
        {
            if (_parked is { } parked)
            {
                _parked = null;
                return parked;
            }
        }

        string resizePath = ResizeFiles.PathFor(path);
        FilterFileOptions configured = _options.ToFileOptions(_options.SizeBytes);
        if (ResizeFiles.CanResume(path, _options.SizeBytes))
        {
            return FilterOpener.OpenOrRebuild(resizePath, configured, configured, _log.EndPosition, _observer);
        }

        ResizeFiles.Discard(path);
        return new CheckpointedFilter(FilterFile.Create(resizePath, configured), 0, _observer);
    }

    private void Swap(string path, CheckpointedFilter building, long builtTo)
    {
        lock (_checkpointGate)
        {
            // The swap renames two files; the new file's journal is folded first so that nothing else needs renaming,
            // and the old file stops folding, so it cannot write under the shared name after the swap.
            // Folded first: if that fails (a full disk), the resize fails and the old file goes on serving, unretired.
            building.File.FoldJournal();
            CheckpointedFilter old = _serving!;
            old.File.Retire();
            ResizeFiles.Swap(path);
            building.MovedOver(old);
            _serving = building;
            _building = null;
            _contract.Read(builtTo); // below it, the new file holds every record: the build read them

            // A reader may still be probing the old mapping; it stays mapped (its file already unlinked) until Dispose,
            // but its writer lock went to the new file above, and the new file's lock on ….resize was released.
            _retired.Add(old);
            _resizePending = false;
            _rebuildPending = false;
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

            _building?.Dispose();
            _parked?.Dispose();
            _serving?.Dispose();
            _retired.ForEach(r => r.Dispose());
            _retired.Clear();
            _building = null;
            _parked = null;
            _serving = null;
        }
    }
}
