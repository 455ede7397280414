namespace EventFilter.Durability;

/// <summary>
/// Resize and online rebuild: a new file of the configured size is built from the log beside the serving one, which
/// answers until the swap. One build at a time, claimed with <see cref="TryClaim"/>; due at start when the file has
/// another size or too many all-ones lines, or started by an operator. See docs/design.md, "Resize" and "Online rebuild".
/// </summary>
internal sealed class BesideBuild
{
    private const int NoRebuild = -1;

    private readonly StreamExistenceFilterOptions _options;
    private readonly IStreamNameLog _log;
    private readonly FilterObserver _observer;
    private readonly CatchUp _catchUp;
    private readonly FilterFiles _files;
    private readonly Action<CheckpointedFilter, long> _swapIn;
    private int _claimed; // 1 while a resize or online rebuild owns the file beside the serving one
    private int _onlineRebuild = NoRebuild;
    private volatile bool _resizeDue;
    private volatile string? _rebuildDue; // why an online rebuild is due; null when none is

    /// <summary>
    /// <paramref name="swapIn"/> swaps the built file in and records that it covers the log up to the given position,
    /// as one step under the filter's checkpoint gate.
    /// </summary>
    public BesideBuild(StreamExistenceFilterOptions options, IStreamNameLog log, FilterObserver observer, CatchUp catchUp, FilterFiles files, Action<CheckpointedFilter, long> swapIn)
    {
        _options = options;
        _log = log;
        _observer = observer;
        _catchUp = catchUp;
        _files = files;
        _swapIn = swapIn;
    }

    /// <summary>Why the online rebuild under way was started; null when none is.</summary>
    public RebuildReason? OnlineRebuild => Volatile.Read(ref _onlineRebuild) is var reason and >= 0 ? (RebuildReason)reason : null;

    /// <summary>True while a file of a new size is being built (not for an online rebuild).</summary>
    public bool IsResizing => _files.Building is not null && OnlineRebuild is null;

    /// <summary>
    /// What the opened file calls for: a resize when it has another size than configured, else an online rebuild when
    /// its all-ones lines pass the threshold. An online rebuild a restart interrupted is not resumed, only started anew.
    /// </summary>
    public void NoteOpened(FilterFile serving)
    {
        _resizeDue = serving.Header.SizeBytes != _options.SizeBytes;
        if (_resizeDue)
        {
            _observer.ResizeStarted(_options.FilterPath, serving.Header.SizeBytes, _options.SizeBytes);
            return;
        }

        ResizeFiles.Discard(_options.FilterPath);
        _rebuildDue = AllOnesBeyondThreshold(serving.Verification);
    }

    /// <summary>Runs the resize or rebuild that <see cref="NoteOpened"/> found due, if no other build has claimed the slot.</summary>
    public Task RunDueAsync(CancellationToken cancellationToken)
    {
        bool resize = _resizeDue;
        string? rebuild = _rebuildDue;
        if ((!resize && rebuild is null) || !TryClaim())
        {
            return Task.CompletedTask;
        }

        return resize ? BuildAsync(null, "", cancellationToken) : BuildAsync(RebuildReason.AllOnesLines, rebuild!, cancellationToken);
    }

    /// <summary>Claims the one build allowed; the claim ends when <see cref="BuildAsync"/> does.</summary>
    public bool TryClaim() => Interlocked.CompareExchange(ref _claimed, 1, 0) == 0;

    /// <summary>A resize (<paramref name="reason"/> null) or an online rebuild at the same size; the caller has claimed the build.</summary>
    public async Task BuildAsync(RebuildReason? reason, string detail, CancellationToken cancellationToken)
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
            // From here on every host add reaches the new file too. An add that missed it kept its record's end in the
            // serving file before it looked: the process-wide barrier makes every such end visible to the read below
            // (the add's side needs no fence of its own), so either the add saw the new file or its end is waited for.
            building = _files.PublishBuilding(() => OpenBesideFile(path));
            Interlocked.MemoryBarrierProcessWide();
            long addedEnd = _files.Serving!.File.HighestRecordEnd;
            CatchUpProgress built = await _catchUp.RunAsync(building, cancellationToken, addedEnd).ConfigureAwait(false);
            _swapIn(building, built.Position);
            building = null;
            _resizeDue = false;
            _rebuildDue = null;
        }
        finally
        {
            if (building is not null)
            {
                _files.Park(building);
            }

            Volatile.Write(ref _onlineRebuild, NoRebuild);
            Volatile.Write(ref _claimed, 0);
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
        string resizePath = ResizeFiles.PathFor(path);
        FilterFileOptions configured = _options.ToFileOptions(_options.SizeBytes);
        if (ResizeFiles.CanResume(path, _options.SizeBytes))
        {
            return FilterOpener.OpenOrRebuild(resizePath, configured, configured, _log.EndPosition, _observer);
        }

        ResizeFiles.Discard(path);
        return new CheckpointedFilter(FilterFile.Create(resizePath, configured), 0, _observer);
    }

    private string? AllOnesBeyondThreshold(VerificationResult? verification)
    {
        if (verification is not { LinesChecked: > 0 } found)
        {
            return null;
        }

        double share = (double)found.AllOnesLines / found.LinesChecked;
        return share <= _options.AllOnesRebuildThreshold
            ? null
            : $"{found.AllOnesLines} of {found.LinesChecked} lines are all ones ({share:P2}), above the threshold of {_options.AllOnesRebuildThreshold:P2}; the old file serves until the new one has caught up";
    }
}
