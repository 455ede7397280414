using System.Diagnostics;
using EventLog;

namespace EventFilter.IndexExperiments;

/// <summary>What a batch of lookups cost: latency per lookup and the index-file reads behind it.</summary>
/// <param name="MeanNs">Mean nanoseconds per <c>GetLastEventNumber</c>.</param>
/// <param name="P99Ns">99th percentile, nanoseconds.</param>
/// <param name="FileReadsPerLookup">Index files read (not skipped by a filter) per lookup.</param>
internal readonly record struct LookupCost(double MeanNs, double P99Ns, double FileReadsPerLookup);

/// <summary>
/// Times <c>GetLastEventNumber</c> one call at a time with <see cref="Stopwatch.GetTimestamp"/> (about 20 ns of overhead,
/// small beside the microseconds an index file costs). Present names are drawn uniformly from every file, so a hit
/// may sit in the oldest file, as in the source's benchmark; absent names were never written. Seeds are fixed, so each
/// configuration sees the same sequence of names.
/// </summary>
internal static class LookupTimer
{
    /// <summary>Untimed lookups of the same mix before each measurement (JIT, page cache, branch predictors).</summary>
    public const int WarmUp = 5_000;

    /// <summary>
    /// Three measurements of <paramref name="lookups"/> / 3 lookups each, and the one with the median mean: a burst of
    /// other work on a shared machine then spoils one of them, not the result.
    /// </summary>
    public static LookupCost MeasureMedian(EventLogEngine engine, IndexFixture fixture, double absentShare, int lookups)
    {
        LookupCost[] runs = [.. Enumerable.Range(0, 3).Select(_ => Measure(engine, fixture, absentShare, Math.Max(1, lookups / 3)))];
        return runs.OrderBy(r => r.MeanNs).ElementAt(1);
    }

    public static LookupCost Measure(EventLogEngine engine, IndexFixture fixture, double absentShare, int lookups)
    {
        string[] names = Names(fixture, absentShare, WarmUp + lookups);
        for (int i = 0; i < WarmUp; i++)
        {
            Check(engine.GetLastEventNumber(names[i]), names[i]);
        }

        long readsBefore = engine.Statistics.IndexFileReads;
        long[] ticks = new long[lookups];
        for (int i = 0; i < lookups; i++)
        {
            string name = names[WarmUp + i];
            long start = Stopwatch.GetTimestamp();
            long last = engine.GetLastEventNumber(name);
            ticks[i] = Stopwatch.GetTimestamp() - start;
            Check(last, name);
        }

        long reads = engine.Statistics.IndexFileReads - readsBefore;
        Array.Sort(ticks);
        double nsPerTick = 1e9 / Stopwatch.Frequency;
        return new LookupCost(ticks.Average() * nsPerTick, ticks[(int)(lookups * 0.99)] * nsPerTick, (double)reads / lookups);
    }

    private static string[] Names(IndexFixture fixture, double absentShare, int count)
    {
        var random = new Random(42);
        return [.. Enumerable.Range(0, count).Select(i => random.NextDouble() < absentShare
            ? IndexFixture.Absent(i)
            : IndexFixture.Present(random.NextInt64(fixture.Streams)))];
    }

    // A wrong answer would make every number here meaningless: present streams hold event 0, absent ones none.
    private static void Check(long last, string name)
    {
        long expected = name.StartsWith("absent-", StringComparison.Ordinal) ? -1 : 0;
        if (last != expected)
        {
            throw new InvalidOperationException($"GetLastEventNumber(\"{name}\") returned {last}, expected {expected}.");
        }
    }
}
