using EventFilter.Cli.Progress;

namespace EventFilter.Cli.Tests;

public sealed class ProgressDisplayTests
{
    private readonly Microsoft.Extensions.Time.Testing.FakeTimeProvider _time = new();
    private readonly StringWriter _error = new();

    [Fact]
    public void Work_that_ends_within_the_quiet_period_prints_nothing()
    {
        using (ProgressDisplay progress = ProgressDisplay.Start(Console(terminal: false), "verify", 1000))
        {
            progress.Report(500);
            progress.Report(1000);
        }

        Assert.Equal(string.Empty, _error.ToString());
    }

    [Fact]
    public void Plain_lines_give_percent_rate_and_eta_then_a_final_line()
    {
        using (ProgressDisplay progress = ProgressDisplay.Start(Console(terminal: false), "verify", 4_000_000))
        {
            _time.Advance(TimeSpan.FromSeconds(2));
            progress.Report(1_000_000);
            _time.Advance(TimeSpan.FromSeconds(1));
            progress.Report(1_500_000); // within the line interval: not printed
            _time.Advance(TimeSpan.FromSeconds(1));
            progress.Report(2_000_000);
            progress.Report(1_900_000); // an out-of-order report from a slower thread never moves it back
        }

        string[] lines = _error.ToString().Split(Environment.NewLine, StringSplitOptions.RemoveEmptyEntries);
        Assert.Equal(
            [
                "verify: 25.0% (1,000,000 of 4,000,000 lines), 500,000 lines/s, ETA 0:00:06",
                "verify: 50.0% (2,000,000 of 4,000,000 lines), 500,000 lines/s, ETA 0:00:04",
                "verify: 100.0% (4,000,000 lines) in 0:00:04, 1,000,000 lines/s",
            ],
            lines);
    }

    // Regression: a snapshot at 100% taken before any time had passed said "ETA ?" with nothing left to do.
    [Fact]
    public void Nothing_remains_at_100_percent_even_before_there_is_a_rate()
    {
        var done = new ProgressSnapshot("verify", 1000, 1000, TimeSpan.Zero);

        Assert.Equal(TimeSpan.Zero, done.Remaining);
        Assert.EndsWith("ETA 0:00:00", done.ToLine(), StringComparison.Ordinal);
        Assert.EndsWith("ETA 0:00:00", done.ToBar(), StringComparison.Ordinal);
    }

    [Fact]
    public void A_terminal_gets_a_bar_redrawn_in_place()
    {
        using (ProgressDisplay progress = ProgressDisplay.Start(Console(terminal: true), "repair", 1000))
        {
            _time.Advance(TimeSpan.FromSeconds(2));
            progress.Report(500);
        }

        string output = _error.ToString();
        Assert.StartsWith("\rrepair [###############---------------]  50.0%  250 lines/s  ETA 0:00:02", output, StringComparison.Ordinal);
        Assert.Contains("\rrepair [##############################] 100.0%", output, StringComparison.Ordinal);
        Assert.EndsWith(Environment.NewLine, output, StringComparison.Ordinal);
    }

    private CliConsole Console(bool terminal) => new(TextWriter.Null, _error, terminal, _time);
}
