using System.Runtime.CompilerServices;
using EventFilter.Durability;

namespace EventFilter;

/// <summary>
/// The stream-existence filter with its durability: a <see cref="FilterFile"/> plus checkpoint, opened, verified,
/// rebuilt or resized as needed, and caught up from the host's log. Until caught up it answers "maybe".
/// Call <see cref="Open"/>, then run <see cref="CatchUpAsync"/> in the background. See docs/design.md.
/// </summary>
public sealed partial class StreamExistenceFilter : IStreamExistenceFilter, IFilterReadPosition, IDisposable
{
    private readonly StreamExistenceFilterOptions _options;
    private readonly IStreamNameLog _log;
    private readonly FilterObserver _observer;
    private readonly CatchUp _catchUp;
    private readonly HostContract _contract;
    private readonly FilterFiles _files = new();
    private readonly BesideBuild _besideBuild;
    private readonly LogFollower _follower;
    private readonly LogEndChecks _endChecks;
    // Orders the samples of the log's end that reach _endChecks (StreamExistenceFilter.Reading.cs).
    private readonly Lock _endSampling = new();

    // Orders every change of the host contract's positions with the checkpoints and the files they vouch for.
    private readonly Lock _checkpointGate = new();

    /// <summary>Creates the filter; nothing touches the disk until <see cref="Open"/>.</summary>
    public StreamExistenceFilter(StreamExistenceFilterOptions options, IStreamNameLog log, FilterObserver? observer = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(log);
        options.Validate();
        _options = options;
        _log = log;
        _observer = observer ?? new FilterObserver();
        _catchUp = new CatchUp(log, _observer, options);
        _contract = new HostContract(options.FilterPath, _observer, following: options.FollowLog);
        _besideBuild = new BesideBuild(options, log, _observer, _catchUp, _files, SwapIn);
        _endChecks = new LogEndChecks(options.FilterPath, _observer, options.TimeProvider, options.LogEndBound);
        _follower = new LogFollower(log, _observer, options, _checkpointGate, _contract, AddRead, EndSampled);
    }

    /// <inheritdoc/>
    public FilterState State => _state;

    /// <summary>True when caught up with the log.</summary>
    internal bool IsReady => _state == FilterState.Ready;

    /// <inheritdoc/>
    public Task WhenReady => _ready.Task;

    /// <inheritdoc/>
    public long? CheckpointPosition => _files.Serving?.DurablePosition;

    /// <summary>What verification found when the serving file was opened; null when disabled or not opened.</summary>
    internal VerificationResult? Verification => _files.Serving?.File.Verification;

    /// <summary>The file serving lookups; null when disabled or not opened. For experiments that ask in batches.</summary>
    internal FilterFile? ServingFile => _files.Serving?.File;

    /// <summary>
    /// The highest record end the host has given to <c>Add</c> since the serving file opened (0 before any): how far its
    /// appends reached, whatever the log's end says. For telemetry (the checkpoint lag of a host whose end is stuck);
    /// it reads one word per stripe, so not for the hot path.
    /// </summary>
    public long AddedEnd => _files.Serving?.File.HighestRecordEnd ?? 0;

    /// <summary>The size of the file answering lookups now (during a resize, the old size); 0 when disabled.</summary>
    public long ServingSizeBytes => _files.Serving?.File.Header.SizeBytes ?? 0;

    /// <summary>True while a file of a new size is being built in the background (not for an <see cref="OnlineRebuild"/>).</summary>
    public bool IsResizing => _besideBuild.IsResizing;

    /// <summary>Why the online rebuild under way was started; null when none is (a resize is <see cref="IsResizing"/>).</summary>
    public RebuildReason? OnlineRebuild => _besideBuild.OnlineRebuild;

    /// <inheritdoc/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<char> streamName) => _state != FilterState.Ready || _files.Serving!.File.MightExist(streamName);

    /// <inheritdoc/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<byte> utf8StreamName) => _state != FilterState.Ready || _files.Serving!.File.MightExist(utf8StreamName);

    /// <inheritdoc/>
    public void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results)
    {
        if (results.Length < streamNames.Length)
        {
            throw new ArgumentException($"results holds {results.Length} answers for {streamNames.Length} names.", nameof(results));
        }

        // The serving file is read once: a swap during the batch leaves the old file mapped, and every name it held is
        // in the new one too (docs/design.md, "Resize").
        if (_state != FilterState.Ready || _files.Serving is not { } serving)
        {
            results[..streamNames.Length].Fill(true);
            return;
        }

        serving.File.MightExistBatch(streamNames, results[..streamNames.Length]);
    }

    /// <inheritdoc/>
    public void Add(ReadOnlySpan<char> streamName, long recordEnd)
    {
        if (ServingFor(recordEnd) is not { } serving)
        {
            return;
        }

        serving.File.Add(streamName, recordEnd);
        AlsoTo(serving)?.File.Add(streamName, recordEnd);
    }

    /// <inheritdoc/>
    public void Add(ReadOnlySpan<byte> utf8StreamName, long recordEnd)
    {
        if (ServingFor(recordEnd) is not { } serving)
        {
            return;
        }

        serving.File.Add(utf8StreamName, recordEnd);
        AlsoTo(serving)?.File.Add(utf8StreamName, recordEnd);
    }

    /// <summary>The file an add goes to first, after the host contract's checks; null when there is none (nothing to add to).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private CheckpointedFilter? ServingFor(long recordEnd)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(recordEnd);
        if (_contract.IsLate(recordEnd))
        {
            LateAdd(recordEnd);
        }

        CheckpointedFilter? serving = _files.Serving;
        if (serving is null)
        {
            AddWithoutFile(recordEnd);
        }

        return serving;
    }

    /// <summary>
    /// The file an add goes to after <paramref name="serving"/> has kept its record's end, if any. Only then is a file
    /// being built looked for: a resize that published its file after this read reads that end next (docs/design.md,
    /// "Resize", step 2). A swap between the two reads publishes the new serving file before it clears the build.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private CheckpointedFilter? AlsoTo(CheckpointedFilter serving) =>
        _files.Building ?? (_files.Serving is { } swapped && swapped != serving ? swapped : null);

    /// <inheritdoc/>
    public void Checkpoint(long position)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(position);
        lock (_checkpointGate)
        {
            CheckpointedFilter? serving = _files.Serving;
            if (serving is null)
            {
                return;
            }

            if (_contract.MovedBack(position))
            {
                TruncateLocked(position);
            }

            // Before catch-up finishes, names between its position and the host's are not all in yet; after it, no
            // more than the host's adds reached is claimed (HostContract.Claim).
            serving.Checkpoint(_state == FilterState.Ready
                ? _contract.Claim(position, serving.File.HighestRecordEnd)
                : Math.Min(position, _catchUp.Position));
        }

        if (_state == FilterState.Ready && SampleEnd() is { } end)
        {
            EndSampled(end);
        }
    }

    /// <inheritdoc/>
    public void TruncateTo(long position)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(position);
        lock (_checkpointGate)
        {
            TruncateLocked(position);
        }
    }

    private void TruncateLocked(long position)
    {
        _contract.Truncated(position);
        _catchUp.NoteTruncation(position);
        _follower.NoteTruncation(position);
        _endChecks.Truncated(position);
        _files.TruncateTo(position);
    }

    private void SwapIn(CheckpointedFilter building, long builtTo)
    {
        lock (_checkpointGate)
        {
            _files.SwapIn(_options.FilterPath, building);

            // Below builtTo the new file holds every record: the build read them. A follower's position stays: every
            // batch it read went to the file being built as well (docs/design.md, "Following the log").
            _contract.Read(_options.FollowLog ? Math.Max(builtTo, _contract.ReadEnd) : builtTo);
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void LateAdd(long recordEnd)
    {
        if (_contract.ReportLateAdd(recordEnd, _log) is { } cutAt)
        {
            lock (_checkpointGate)
            {
                TruncateLocked(cutAt);
            }
        }
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void AddWithoutFile(long recordEnd)
    {
        switch (_state)
        {
            case FilterState.Disabled:
                return;
            case FilterState.Stopped:
                _contract.AddAfterDispose(recordEnd);
                return;
            default:
                // Before Open there is nowhere to put the name, and a catch-up that ends before its record is durable
                // would never read it: a false negative. A programming error, so it fails loudly.
                throw new InvalidOperationException("Call Open before the first Add: a name added before the filter is opened would be lost (docs/design.md, \"Host contract\").");
        }
    }

    /// <summary>Counts bits of the serving file; null when disabled. Reads every line: for telemetry, not the hot path.</summary>
    public FilterStatistics? ComputeStatistics() => _files.Serving?.File.ComputeStatistics();
}
