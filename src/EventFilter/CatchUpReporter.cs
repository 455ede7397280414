namespace EventFilter;

/// <summary>
/// The cadence every catch-up reports at: progress at most once a <see cref="Interval"/>, and a report of the end
/// (100%) for the caller to pass on as it passes on an end. The filter's own catch-up uses it, and so can a host that
/// catches up files of its own, so that operators see the same lines and metrics from both (docs/telemetry.md).
/// </summary>
public sealed class CatchUpReporter
{
    /// <summary>The least time between two progress reports: one second.</summary>
    public static readonly TimeSpan Interval = TimeSpan.FromSeconds(1);

    private readonly string _path;
    private readonly long _startPosition;
    private readonly Action<CatchUpProgress> _report;
    private readonly TimeProvider _time;
    private readonly long _started;
    private TimeSpan _lastReport;

#pragma warning disable RS0030 // a public constructor's default, as an option's; the filter's own catch-up passes its options' clock
    /// <param name="path">The file being caught up.</param>
    /// <param name="startPosition">Where the catch-up started.</param>
    /// <param name="report">Receives each report, for example <see cref="FilterObserver.CatchUpProgress"/>.</param>
    /// <param name="time">The clock; null for <see cref="TimeProvider.System"/>.</param>
    public CatchUpReporter(string path, long startPosition, Action<CatchUpProgress> report, TimeProvider? time = null)
    {
        ArgumentNullException.ThrowIfNull(path);
        ArgumentNullException.ThrowIfNull(report);
        _path = path;
        _startPosition = startPosition;
        _report = report;
        _time = time ?? TimeProvider.System;
        _started = _time.GetTimestamp();
    }
#pragma warning restore RS0030

    /// <summary>Time since the catch-up started.</summary>
    public TimeSpan Elapsed => _time.GetElapsedTime(_started);

    /// <summary>The catch-up has read to <paramref name="position"/>: reports it if an interval has passed since the last report.</summary>
    public void Advanced(long position, long endPosition, long records)
    {
        TimeSpan elapsed = Elapsed;
        if (elapsed - _lastReport >= Interval)
        {
            _lastReport = elapsed;
            _report(new CatchUpProgress(_path, _startPosition, position, Math.Max(endPosition, position), records, elapsed));
        }
    }

    /// <summary>
    /// The report of the end, at <paramref name="position"/> (100%). Not passed to the report callback: the filter
    /// reports it as its last progress and then as caught up; a host of many files may report it only as caught up.
    /// </summary>
    public CatchUpProgress End(long position, long records) =>
        new(_path, _startPosition, position, position, records, Elapsed);
}
