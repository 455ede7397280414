using System.Diagnostics.Metrics;
using System.Runtime.CompilerServices;
using EventFilter.Hosting.Telemetry;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;

namespace EventFilter.Hosting;

/// <summary>
/// The one instance DI hands out both as <see cref="IStreamExistenceFilter"/> and as <see cref="IHostedService"/>:
/// the core <see cref="StreamExistenceFilter"/>, with adds and lookups counted for the metrics on the way through,
/// and its life (open, catch-up, checkpoints, shutdown) driven by the host.
/// </summary>
internal sealed partial class HostedStreamExistenceFilter : IStreamExistenceFilter, IFilterReadPosition, IFilterResizeStatus
{
    private readonly StreamExistenceFilterHostingOptions _options;
    private readonly StreamExistenceFilterOptions _filterOptions;
    private readonly StreamExistenceFilter _filter;
    private readonly IStreamNameLog _log;
    private readonly ICheckpointPositionSource? _positionSource;
    private readonly TimeProvider _time;
    private readonly ILogger _logger;
    private readonly FilterMetrics _metrics;
    private readonly TelemetryObserver _observer;

    public HostedStreamExistenceFilter(
        IOptions<StreamExistenceFilterHostingOptions> options,
        IStreamNameLog log,
        TimeProvider timeProvider,
        ILoggerFactory? loggerFactory = null,
        IMeterFactory? meterFactory = null,
        ICheckpointPositionSource? positionSource = null)
    {
        ArgumentNullException.ThrowIfNull(options);
        _options = options.Value;
        _filterOptions = _options.ToFilterOptions(timeProvider);
        _log = log;
        _positionSource = positionSource;
        _time = timeProvider;
        _logger = (loggerFactory ?? NullLoggerFactory.Instance).CreateLogger(Telemetry.Log.Category);

        // The metrics exist before the filter; until it does, the checkpoint gauges report nothing.
        // The lag runs to where the host's appends reached, when that is past the log's end: a database log whose end is
        // held back (an in-flight transaction, a stuck high-water mark) must not show a lag of 0 while appends go on.
        _metrics = new FilterMetrics(meterFactory, () => _filter?.CheckpointPosition, () => LogEnd is { } end ? Math.Max(end, _filter?.AddedEnd ?? 0) : null, () => _filter?.ServingSizeBytes ?? 0, () => Reading);
        _observer = new TelemetryObserver(_logger, _metrics.Files, timeProvider);
        _filter = new StreamExistenceFilter(_filterOptions, log, _observer);
    }

    /// <inheritdoc/>
    public FilterState State => _filter.State;

    /// <inheritdoc/>
    public Task WhenReady => _filter.WhenReady;

    /// <inheritdoc/>
    public long? CheckpointPosition => _filter.CheckpointPosition;

    /// <inheritdoc/>
    public long ReadPosition => _filter.ReadPosition;

    /// <inheritdoc/>
    public Task WaitForReadPositionAsync(long position, CancellationToken cancellationToken) => _filter.WaitForReadPositionAsync(position, cancellationToken);

    /// <summary>How long the follower has been behind the log's end; zero at the end and without following.</summary>
    internal TimeSpan FollowLag => _filter.FollowLag;

    /// <summary>The lag above which health reports Degraded.</summary>
    internal TimeSpan MaxFollowLag => _options.MaxFollowLag;

    /// <summary>The log's end for metrics and health; null when the log throws (a reader reports that, once per episode).</summary>
    internal long? LogEnd
    {
        get
        {
            try
            {
                return _log.EndPosition;
            }
            catch (Exception)
            {
                return null;
            }
        }
    }

    /// <summary>Where the filter has read to, how far behind the log's end that is, and the follower's lag; null before open.</summary>
    private (long Position, long? Behind, TimeSpan Lag)? Reading => _filter?.CheckpointPosition is null
        ? null
        : (_filter.ReadPosition, LogEnd is { } end ? Math.Max(0, end - _filter.ReadPosition) : null, _filter.FollowLag);

    internal TelemetryObserver Observer => _observer;

    internal FilterMetrics Metrics => _metrics;

    internal bool IsResizing => _filter.IsResizing;

    internal RebuildReason? OnlineRebuild => _filter.OnlineRebuild;

    /// <inheritdoc/>
    public FilterResizeProgress? Resize
    {
        get
        {
            CatchUpProgress? building = Building;
            return _filter.IsResizing ? new FilterResizeProgress(_filter.ServingSizeBytes, _filterOptions.SizeBytes, building?.Percent ?? 0, building?.EstimatedRemaining) : null;
        }
    }

    /// <inheritdoc/>
    public FilterRebuildProgress? Rebuild
    {
        get
        {
            CatchUpProgress? building = Building;
            return _filter.OnlineRebuild is { } reason ? new FilterRebuildProgress(reason, building?.Percent ?? 0, building?.EstimatedRemaining) : null;
        }
    }

    /// <summary>While a resize or rebuild runs, a report about any other file than the serving one is about the file being built.</summary>
    private CatchUpProgress? Building => _observer.LastProgress is { } last && last.Path != _filterOptions.FilterPath ? last : null;

    /// <inheritdoc/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<char> streamName)
    {
        if (_filter.State != FilterState.Ready)
        {
            _metrics.NotReady.Increment();
            return true;
        }

        return CountAnswer(_filter.MightExist(streamName));
    }

    /// <inheritdoc/>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ReadOnlySpan<byte> utf8StreamName)
    {
        if (_filter.State != FilterState.Ready)
        {
            _metrics.NotReady.Increment();
            return true;
        }

        return CountAnswer(_filter.MightExist(utf8StreamName));
    }

    /// <inheritdoc/>
    public void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results)
    {
        bool ready = _filter.State == FilterState.Ready;
        _filter.MightExist(streamNames, results);
        if (!ready)
        {
            _metrics.NotReady.Add(streamNames.Length);
            return;
        }

        int maybe = results[..streamNames.Length].Count(true);
        _metrics.Maybe.Add(maybe);
        _metrics.DefinitelyNot.Add(streamNames.Length - maybe);
    }

    /// <inheritdoc/>
    public void Add(ReadOnlySpan<char> streamName, long recordEnd)
    {
        _metrics.Adds.Increment();
        try
        {
            _filter.Add(streamName, recordEnd);
        }
        catch (InvalidOperationException notOpen) when (IsBeforeOpen)
        {
            throw StreamExistenceFilterStartException.AddBeforeOpen(notOpen);
        }
    }

    /// <inheritdoc/>
    public void Add(ReadOnlySpan<byte> utf8StreamName, long recordEnd)
    {
        _metrics.Adds.Increment();
        try
        {
            _filter.Add(utf8StreamName, recordEnd);
        }
        catch (InvalidOperationException notOpen) when (IsBeforeOpen)
        {
            throw StreamExistenceFilterStartException.AddBeforeOpen(notOpen);
        }
    }

    /// <inheritdoc/>
    public void Checkpoint(long position) => _filter.Checkpoint(position);

    /// <inheritdoc/>
    public void TruncateTo(long position) => _filter.TruncateTo(position);

    /// <summary>
    /// Before StartAsync has opened the file, where the core refuses adds: the service that adds was registered, and so
    /// started, before this one. Read only when an add has thrown, so the hot path pays nothing for it.
    /// </summary>
    private bool IsBeforeOpen => _work is null && !_stopped && _filter.State == FilterState.Initializing;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool CountAnswer(bool maybe)
    {
        (maybe ? _metrics.Maybe : _metrics.DefinitelyNot).Increment();
        return maybe;
    }
}
