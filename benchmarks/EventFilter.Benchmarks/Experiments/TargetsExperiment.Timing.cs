using System.Diagnostics;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// How <c>targets</c> times a case: warm-up, then timed rounds; the fastest round is the figure. On this 2-vCPU guest
/// the median moved up to 2x between quiet runs minutes apart (a neighbour's load, the other vCPU's work), while the
/// fastest of many short rounds is what the code costs when nothing else runs, as BenchmarkDotNet's Min is.
/// </summary>
public static partial class TargetsExperiment
{
    private static int Repeat(int times, Func<int> body)
    {
        int sink = 0;
        for (int i = 0; i < times; i++)
        {
            sink += body();
        }

        return sink;
    }

    /// <summary>
    /// Runs <paramref name="body"/> untimed for at least <see cref="WarmUp"/> (so the JIT has moved the hot path to
    /// its optimised tier, as BenchmarkDotNet's warm-up does), then <paramref name="rounds"/> times.
    /// </summary>
    private static Timing Time(Func<int> body, int rounds = Rounds)
    {
        var warm = Stopwatch.StartNew();
        do
        {
            GC.KeepAlive(body());
        }
        while (warm.Elapsed < WarmUp);

        double[] ns = new double[rounds];
        for (int r = 0; r < rounds; r++)
        {
            long started = Stopwatch.GetTimestamp();
            GC.KeepAlive(body());
            ns[r] = Stopwatch.GetElapsedTime(started).TotalNanoseconds;
        }

        return Timing.Of(ns);
    }

    /// <summary>The rounds of one case: the fastest is the figure; the median and the spread show how steady it was.</summary>
    private readonly record struct Timing(double Median, double Min, double Max)
    {
        public static Timing Of(IList<double> rounds)
        {
            double[] sorted = rounds.Order().ToArray();
            return new Timing(sorted[sorted.Length / 2], sorted[0], sorted[^1]);
        }

        public static Timing operator /(Timing timing, double by) => new(timing.Median / by, timing.Min / by, timing.Max / by);

        public static implicit operator double(Timing timing) => timing.Min;
    }
}
