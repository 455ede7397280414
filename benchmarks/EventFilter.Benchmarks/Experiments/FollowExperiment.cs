using System.Diagnostics;
using System.Globalization;
using System.Runtime.Intrinsics;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Experiments;

/// <summary>
/// <c>follow</c>: what following the log costs, and how stale a follower is (docs/benchmarks-follow.md).
/// 1. Cost: a follower at the end of an empty log, then the log grows by N names at once (a log growing faster than
///    any reader); time and process CPU until its read position reaches the end, beside the same run's catch-up of the
///    same N names by a new filter. Rounds alternate the two.
/// 2. Staleness: two filters over one log, one appending through its filter, the other following; from the append to
///    the follower answering "maybe" for the new name, with the log's signal and with polling only (the default
///    100 ms), beside the same run's signal round trip (append to a waiter on the signal running). Both filters follow,
///    as every process of a multi-process host does; one row has the writer's filter not following, for comparison.
/// Default options except <c>FollowLog</c> (and the poll interval, for the signal-only row), at the default size.
/// </summary>
public static class FollowExperiment
{
    public static int Run(string[] args)
    {
        int names = Option(args, "--names", 4_000_000), samples = Option(args, "--samples", 2000), rounds = Option(args, "--rounds", 3);
        Console.WriteLine($"follow: {names:N0} names, {rounds} rounds; {samples:N0} staleness samples; {Environment.ProcessorCount} CPUs, AVX-512 {(Vector512.IsHardwareAccelerated ? "on" : "off")}, AVX2 {(Vector256.IsHardwareAccelerated ? "on" : "off")}");
        RunCost(names, rounds).GetAwaiter().GetResult();
        RunStaleness(samples).GetAwaiter().GetResult();
        return 0;
    }

    private static async Task RunCost(int names, int rounds)
    {
        var rows = new List<IReadOnlyList<string>>();
        for (int round = 1; round <= rounds; round++)
        {
            // A fresh log each round, so the follower starts at an empty log.
            var log = new GrowingLog(names, $"follow{round}");
            using (var scratch = new Scratch($"follow-cost-{round}"))
            {
                using StreamExistenceFilter follower = Open(scratch.Path, log, follow: true);
                using var stop = new CancellationTokenSource();
                Task following = follower.CatchUpAsync(stop.Token);
                await follower.WhenReady.ConfigureAwait(false);
                (TimeSpan wall, TimeSpan cpu) = await MeasureAsync(async () =>
                {
                    log.Grow(names);
                    await follower.WaitForReadPositionAsync(names, CancellationToken.None).ConfigureAwait(false);
                }).ConfigureAwait(false);
                await stop.CancelAsync().ConfigureAwait(false);
                await following.ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
                CheckAll(follower, log, names);
                rows.Add(Row(round, "follow", names, wall, cpu));
            }

            using (var scratch = new Scratch($"follow-catchup-{round}"))
            {
                using StreamExistenceFilter caughtUp = Open(scratch.Path, log, follow: false);
                (TimeSpan wall, TimeSpan cpu) = await MeasureAsync(() => caughtUp.CatchUpAsync(CancellationToken.None)).ConfigureAwait(false);
                CheckAll(caughtUp, log, names);
                rows.Add(Row(round, "catch-up", names, wall, cpu));
            }
        }

        MarkdownTable.Print(["round", "reader", "names/s", "wall ns a name", "CPU ns a name"], rows);
    }

    private static async Task RunStaleness(int samples)
    {
        var rows = new List<IReadOnlyList<string>>();
        rows.Add(Percentiles("signal round trip", await SignalRoundTripAsync(samples).ConfigureAwait(false)));
        rows.Add(Percentiles("follower, with the signal (poll 1 min)", await StalenessAsync(samples, TimeSpan.FromMinutes(1), signal: true).ConfigureAwait(false)));
        rows.Add(Percentiles("follower, with the signal, the writer not following", await StalenessAsync(samples, TimeSpan.FromMinutes(1), signal: true, writerFollows: false).ConfigureAwait(false)));
        rows.Add(Percentiles("follower, polling only (100 ms, the default)", await StalenessAsync(Math.Max(20, samples / 10), TimeSpan.FromMilliseconds(100), signal: false).ConfigureAwait(false)));
        MarkdownTable.Print(["from an append to", "samples", "p50 µs", "p99 µs", "p99.9 µs", "max µs"], rows);
    }

    private static async Task<double[]> SignalRoundTripAsync(int samples)
    {
        var log = new GrowingLog(samples, "signal");
        var waits = new double[samples];
        for (int i = 0; i < samples; i++)
        {
            long end = log.EndPosition;
            long woke = 0;
            Task waiter = Task.Run(async () =>
            {
                await log.WaitForAppendAsync(end, CancellationToken.None).ConfigureAwait(false);
                woke = Stopwatch.GetTimestamp();
            });
            await Task.Delay(1).ConfigureAwait(false); // the waiter parks on the signal before the append
            long appended = Stopwatch.GetTimestamp();
            log.Grow(1);
            await waiter.ConfigureAwait(false);
            waits[i] = Stopwatch.GetElapsedTime(appended, woke).TotalMicroseconds;
        }

        return waits;
    }

    private static async Task<double[]> StalenessAsync(int samples, TimeSpan poll, bool signal, bool writerFollows = true)
    {
        var grown = new GrowingLog(samples, signal ? "signalled" : "polled");
        IStreamNameLog log = signal ? grown : new Unsignalled(grown);
        using var writerDir = new Scratch($"stale-writer-{signal}-{writerFollows}");
        using var readerDir = new Scratch($"stale-reader-{signal}-{writerFollows}");
        using StreamExistenceFilter writer = Open(writerDir.Path, log, follow: writerFollows, poll);
        using StreamExistenceFilter reader = Open(readerDir.Path, log, follow: true, poll);
        using var stop = new CancellationTokenSource();
        Task[] following = [writer.CatchUpAsync(stop.Token), reader.CatchUpAsync(stop.Token)];
        await Task.WhenAll(writer.WhenReady, reader.WhenReady).ConfigureAwait(false);

        var stale = new double[samples];
        var random = new Random(42);
        for (int i = 0; i < samples; i++)
        {
            // The follower parks at the end before the append; without a signal, the append lands anywhere in its poll
            // interval, as an append from another process would.
            await Task.Delay(signal ? TimeSpan.FromMilliseconds(1) : poll * random.NextDouble()).ConfigureAwait(false);
            long appended = Stopwatch.GetTimestamp();
            long end = grown.Grow(1);
            writer.Add(grown.NameAt(end - 1), end);
            await reader.WaitForReadPositionAsync(end, CancellationToken.None).ConfigureAwait(false);
            long seen = Stopwatch.GetTimestamp();
            if (!reader.MightExist(grown.NameAt(end - 1)))
            {
                throw new InvalidOperationException($"the follower read past {end - 1} and answers \"definitely not\" for it");
            }

            stale[i] = Stopwatch.GetElapsedTime(appended, seen).TotalMicroseconds;
        }

        await stop.CancelAsync().ConfigureAwait(false);
        await Task.WhenAll(following).ConfigureAwait(ConfigureAwaitOptions.SuppressThrowing);
        return stale;
    }

    private static async Task<(TimeSpan Wall, TimeSpan Cpu)> MeasureAsync(Func<Task> work)
    {
        TimeSpan cpu = Process.GetCurrentProcess().TotalProcessorTime;
        long started = Stopwatch.GetTimestamp();
        await work().ConfigureAwait(false);
        TimeSpan wall = Stopwatch.GetElapsedTime(started);
        return (wall, Process.GetCurrentProcess().TotalProcessorTime - cpu);
    }

    private static StreamExistenceFilter Open(string directory, IStreamNameLog log, bool follow, TimeSpan? poll = null)
    {
        var filter = new StreamExistenceFilter(
            new StreamExistenceFilterOptions { DataDirectory = directory, FollowLog = follow, FollowPollInterval = poll ?? TimeSpan.FromMilliseconds(100) },
            log);
        filter.Open();
        return filter;
    }

    private static void CheckAll(StreamExistenceFilter filter, GrowingLog log, int names)
    {
        for (int i = 0; i < names; i += 997)
        {
            if (!filter.MightExist(log.NameAt(i)))
            {
                throw new InvalidOperationException($"name {i} answered \"definitely not\"");
            }
        }
    }

    private static string[] Row(int round, string reader, int names, TimeSpan wall, TimeSpan cpu) =>
    [
        round.ToString(CultureInfo.InvariantCulture), reader,
        (names / wall.TotalSeconds).ToString("N0", CultureInfo.InvariantCulture),
        (wall.TotalNanoseconds / names).ToString("F1", CultureInfo.InvariantCulture),
        (cpu.TotalNanoseconds / names).ToString("F1", CultureInfo.InvariantCulture),
    ];

    private static string[] Percentiles(string what, double[] values)
    {
        Array.Sort(values);
        string At(double q) => values[Math.Min(values.Length - 1, (int)Math.Ceiling(q * values.Length) - 1)].ToString("N0", CultureInfo.InvariantCulture);
        return [what, values.Length.ToString(CultureInfo.InvariantCulture), At(0.5), At(0.99), At(0.999), values[^1].ToString("N0", CultureInfo.InvariantCulture)];
    }

    private static int Option(string[] args, string name, int fallback)
    {
        int at = Array.IndexOf(args, name);
        return at > 0 && at + 1 < args.Length ? int.Parse(args[at + 1], CultureInfo.InvariantCulture) : fallback;
    }

    /// <summary>The same log without its signal: a follower can only poll it.</summary>
    private sealed class Unsignalled(IStreamNameLog log) : IStreamNameLog
    {
        public long EndPosition => log.EndPosition;

        public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken) => log.ReadAsync(fromPosition, batch, cancellationToken);
    }

    /// <summary>A data directory of this process's own, deleted after.</summary>
    private sealed class Scratch(string name) : IDisposable
    {
        public string Path { get; } = Directory.CreateDirectory(BenchmarkDirectory.Scratch(name)).FullName;

        public void Dispose() => Directory.Delete(Path, recursive: true);
    }
}
