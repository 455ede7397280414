using System.Runtime.CompilerServices;
using EventFilter.Durability;
using EventFilter.Integrity;
using EventFilter.Statistics;

namespace EventFilter;

/// <summary>
/// The stream-existence filter with its durability: a <see cref="FilterFile"/> plus checkpoint, opened, verified,
/// rebuilt or resized as needed, and caught up from the host's log. Until caught up it answers "maybe".
/// Call <see cref="Open"/>, then run <see cref="CatchUpAsync"/> in the background. See docs/design.md.
/// </summary>
public sealed partial class StreamExistenceFilter : IStreamExistenceFilter, IDisposable
{
    private readonly StreamExistenceFilterOptions _options;
    private readonly IStreamNameLog _log;
    private readonly FilterObserver _observer;
    private readonly CatchUp _catchUp;
    private readonly TaskCompletionSource _ready = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly Lock _checkpointGate = new();
    private readonly List<CheckpointedFilter> _retired = [];
    private volatile CheckpointedFilter? _serving;
    private volatile CheckpointedFilter? _building;
    private volatile FilterState _state = FilterState.Initializing;

    /// <summary>Creates the filter; nothing touches the disk until <see cref="Open"/>.</summary>
    public StreamExistenceFilter(StreamExistenceFilterOptions options, IStreamNameLog log, FilterObserver? observer = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(log);
        options.Validate();
        _options = options;
        _log = log;
        _observer = observer ?? new FilterObserver();
        _catchUp = new CatchUp(log, _observer, options.CatchUpCheckpointRecords, options.CatchUpProgress);
    }

    /// <inheritdoc/>
    public FilterState State => _state;

    /// <inheritdoc/>
    public bool IsReady => _state == FilterState.Ready;

    /// <inheritdoc/>
    public Task WhenReady => _ready.Task;

    /// <inheritdoc/>
    public long? CheckpointPosition => _serving?.DurablePosition;

    /// <summary>What verification found when the serving file was opened; null when disabled or not opened.</summary>
    public VerificationResult? Verification => _serving?.File.Verification;

    /// <summary>The size of the file answering lookups now (during a resize, the old size); 0 when disabled.</summary>
    public long ServingSizeBytes => _serving?.File.Header.SizeBytes ?? 0;

    /// <summary>True while a file of a new size is being built in the background (not for an <see cref="OnlineRebuild"/>).</summary>
    public bool IsResizing => _building is not null && OnlineRebuild is null;

    /// <inheritdoc/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<char> streamName) => _state != FilterState.Ready || _serving!.File.MightExist(streamName);

    /// <inheritdoc/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<byte> utf8StreamName) => _state != FilterState.Ready || _serving!.File.MightExist(utf8StreamName);

    /// <inheritdoc/>
    public void Add(ReadOnlySpan<char> streamName)
    {
        // Read the resize target before the serving file: the swap publishes the new serving file first and clears
        // the target second, so an add that misses the target is sure to see the new serving file.
        CheckpointedFilter? building = _building;
        CheckpointedFilter? serving = _serving;
        building?.File.Add(streamName);
        serving?.File.Add(streamName);
    }

    /// <inheritdoc/>
    public void Add(ReadOnlySpan<byte> utf8StreamName)
    {
        CheckpointedFilter? building = _building;
        CheckpointedFilter? serving = _serving;
        building?.File.Add(utf8StreamName);
        serving?.File.Add(utf8StreamName);
    }

    /// <inheritdoc/>
    public void Checkpoint(long position)
    {
        lock (_checkpointGate)
        {
            CheckpointedFilter? serving = _serving;
            if (serving is null)
            {
                return;
            }

            // Before catch-up finishes, names between its position and the host's are not all in yet.
            serving.Checkpoint(_state == FilterState.Ready ? position : Math.Min(position, _catchUp.Position));
        }
    }

    /// <inheritdoc/>
    public void TruncateTo(long position)
    {
        ArgumentOutOfRangeException.ThrowIfNegative(position);
        lock (_checkpointGate)
        {
            _catchUp.NoteTruncation(position);
            _serving?.RewindTo(position);
            _building?.RewindTo(position);
            _parked?.RewindTo(position);
        }
    }

    /// <summary>Counts bits of the serving file; null when disabled. Reads every line: for telemetry, not the hot path.</summary>
    public FilterStatistics? ComputeStatistics() => _serving?.File.ComputeStatistics();
}
