namespace EventFilter.Cli.Progress;

/// <summary>
/// Shows how far a scan of a file's lines has got, on stderr: a bar redrawn in place on a terminal, plain lines
/// (percent, lines/s, ETA) when stderr is a log. Scans report from several threads, out of order; this keeps the
/// highest count. Work that finishes within the quiet period prints nothing, so small files stay quiet.
/// </summary>
internal sealed class ProgressDisplay : IProgress<long>, IDisposable
{
    /// <summary>Nothing is shown for work shorter than this.</summary>
    public static readonly TimeSpan QuietPeriod = TimeSpan.FromSeconds(1);

    private static readonly TimeSpan BarInterval = TimeSpan.FromMilliseconds(100);
    private static readonly TimeSpan LineInterval = TimeSpan.FromSeconds(2);

    private readonly CliConsole _console;
    private readonly string _activity;
    private readonly long _total;
    private readonly long _started;
    private readonly string _unit;
    private readonly Lock _gate = new();
    private long _done;
    private long _lastShown;
    private bool _shown;
    private int _barWidth;

    private ProgressDisplay(CliConsole console, string activity, long total, string unit)
    {
        _unit = unit;
        _console = console;
        _activity = activity;
        _total = total;
        _started = console.Time.GetTimestamp();
    }

    /// <summary>Starts timing <paramref name="activity"/> over <paramref name="total"/> of <paramref name="unit"/> (lines, items).</summary>
    public static ProgressDisplay Start(CliConsole console, string activity, long total, string unit = "lines") => new(console, activity, total, unit);

    /// <summary>Scans every line of <paramref name="filter"/> (repairing if asked) with progress shown as <paramref name="activity"/>.</summary>
    public static VerificationResult Verify(CliConsole console, string activity, FilterFile filter, bool repair, double threshold)
    {
        using ProgressDisplay progress = Start(console, activity, filter.Header.LineCount);
        return filter.Verify(repair, threshold, progress);
    }

    /// <summary>Takes the number of lines done so far.</summary>
    public void Report(long value)
    {
        lock (_gate)
        {
            _done = Math.Max(_done, value);
            long now = _console.Time.GetTimestamp();
            if (_console.Time.GetElapsedTime(_started, now) < QuietPeriod)
            {
                return;
            }

            TimeSpan interval = _console.ErrorIsTerminal ? BarInterval : LineInterval;
            if (_shown && _console.Time.GetElapsedTime(_lastShown, now) < interval)
            {
                return;
            }

            Show(now, finished: false);
        }
    }

    /// <summary>Closes the display: a final line if anything was shown, else nothing.</summary>
    public void Dispose()
    {
        lock (_gate)
        {
            if (_shown)
            {
                Show(_console.Time.GetTimestamp(), finished: true);
            }
        }
    }

    private void Show(long now, bool finished)
    {
        var snapshot = new ProgressSnapshot(_activity, finished ? Math.Max(_done, _total) : _done, _total, _console.Time.GetElapsedTime(_started, now), _unit);
        if (_console.ErrorIsTerminal)
        {
            // \r returns to the line start; padding to the previous frame's width wipes what it left.
            string bar = snapshot.ToBar();
            _console.Error.Write("\r" + bar.PadRight(_barWidth));
            _barWidth = bar.Length;
            if (finished)
            {
                _console.Error.WriteLine();
            }
        }
        else
        {
            _console.Error.WriteLine(finished ? snapshot.ToFinalLine() : snapshot.ToLine());
        }

        _console.Error.Flush();
        _shown = true;
        _lastShown = now;
    }
}
