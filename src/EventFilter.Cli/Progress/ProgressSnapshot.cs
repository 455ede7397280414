using EventFilter.Cli.Output;

namespace EventFilter.Cli.Progress;

/// <summary>One moment of a scan, rendered as a plain log line or a terminal bar.</summary>
internal readonly record struct ProgressSnapshot(string Activity, long Done, long Total, TimeSpan Elapsed, string Unit = "lines")
{
    private const int BarWidth = 30;

    public double Fraction => Total <= 0 ? 1 : Math.Clamp((double)Done / Total, 0, 1);

    public double LinesPerSecond => Elapsed.TotalSeconds <= 0 ? 0 : Done / Elapsed.TotalSeconds;

    /// <summary>Time left at the rate so far; zero once every line is done; null before there is a rate to go by.</summary>
    public TimeSpan? Remaining =>
        Done >= Total ? TimeSpan.Zero
        : LinesPerSecond <= 0 ? null
        : TimeSpan.FromSeconds(Math.Min((Total - Done) / LinesPerSecond, TimeSpan.MaxValue.TotalSeconds / 2));

    /// <summary>"verify: 42.0% (1,680,000 of 4,000,000 lines), 840,000 lines/s, ETA 0:00:03".</summary>
    public string ToLine() =>
        $"{Activity}: {TextFormat.Fixed(Fraction * 100, 1)}% ({TextFormat.Count(Done)} of {TextFormat.Count(Total)} {Unit}), {TextFormat.Count((long)LinesPerSecond)} {Unit}/s, ETA {Eta()}";

    /// <summary>"verify: 100.0% (4,000,000 lines) in 0:00:05, 800,000 lines/s".</summary>
    public string ToFinalLine() =>
        $"{Activity}: 100.0% ({TextFormat.Count(Total)} {Unit}) in {TextFormat.Duration(Elapsed)}, {TextFormat.Count((long)LinesPerSecond)} {Unit}/s";

    /// <summary>"verify [############------------------]  42.0%  840,000 lines/s  ETA 0:00:03".</summary>
    public string ToBar()
    {
        int filled = (int)Math.Round(Fraction * BarWidth);
        string bar = new string('#', filled) + new string('-', BarWidth - filled);
        return $"{Activity} [{bar}] {TextFormat.Fixed(Fraction * 100, 1),5}%  {TextFormat.Count((long)LinesPerSecond)} {Unit}/s  ETA {Eta()}";
    }

    private string Eta() => Remaining is { } left ? TextFormat.Duration(left) : "?";
}
