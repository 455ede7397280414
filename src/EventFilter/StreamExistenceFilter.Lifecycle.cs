using EventFilter.Durability;

namespace EventFilter;

/// <summary>Open, catch-up, resize and shutdown. See docs/design.md, sections "Open sequence" and "Resize".</summary>
public sealed partial class StreamExistenceFilter
{
    private bool _resizePending;

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
            ResizeFiles.Discard(path);
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
            CatchUpProgress done = await _catchUp.RunAsync(serving, cancellationToken).ConfigureAwait(false);
            _state = FilterState.Ready;
            _ready.TrySetResult();
            _observer.CatchUpCompleted(done);
            if (_resizePending)
            {
                await ResizeAsync(cancellationToken).ConfigureAwait(false);
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

    private async Task ResizeAsync(CancellationToken cancellationToken)
    {
        string path = _options.FilterPath;
        string resizePath = ResizeFiles.PathFor(path);
        FilterFileOptions configured = _options.ToFileOptions(_options.SizeBytes);
        CheckpointedFilter building;
        if (ResizeFiles.CanResume(path, _options.SizeBytes))
        {
            building = FilterOpener.OpenOrRebuild(resizePath, configured, configured, _log.EndPosition, _observer);
        }
        else
        {
            ResizeFiles.Discard(path);
            building = new CheckpointedFilter(FilterFile.Create(resizePath, configured), 0, _observer);
        }

        // From here on every host add reaches the new file too. An add that read the old target is covered by the log's
        // appended end, read after this exchange: its full fence pairs with the one the host's writer issues between
        // publishing that end and calling Add, so either the add sees the new file or this read sees its record.
        Interlocked.Exchange(ref _building, building);
        long appendedEnd = _log.AppendedEndPosition;
        await _catchUp.RunAsync(building, cancellationToken, appendedEnd).ConfigureAwait(false);

        lock (_checkpointGate)
        {
            // The swap renames two files; the new file's journal is folded first so that nothing else needs renaming,
            // and the old file stops folding, so it cannot write under the shared name after the swap.
            // Folded first: if that fails (a full disk), the resize fails and the old file goes on serving, unretired.
            building.File.FoldJournal();
            CheckpointedFilter old = _serving!;
            old.File.Retire();
            ResizeFiles.Swap(path);
            building.MovedTo(path);
            _serving = building;
            _building = null;

            // A reader may still be probing the old mapping; it stays mapped (its file already unlinked) until Dispose.
            _retired.Add(old);
            _resizePending = false;
        }

        _observer.ResizeCompleted(path, _options.SizeBytes);
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
            _serving?.Dispose();
            _retired.ForEach(r => r.Dispose());
            _retired.Clear();
            _building = null;
            _serving = null;
        }
    }
}
