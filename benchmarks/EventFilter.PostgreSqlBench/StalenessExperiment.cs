using System.Diagnostics;
using System.Globalization;
using Npgsql;

namespace EventFilter.PostgreSqlBench;

/// <summary>
/// How long one process's commit takes to reach another process's filter: a writer process appends one new stream at a
/// time (--appends, --pace-ms apart) and notes the moment just before each commit; a reader process notes each moment
/// its read position moves. Staleness is the first move past a record minus that record's moment, on the machine's
/// monotonic clock, which both processes share. Beside it, in the same run, the LISTEN/NOTIFY round trip of a
/// transaction that inserts a row and notifies, from its COMMIT to the listener hearing it, and of a NOTIFY alone.
/// </summary>
internal static class StalenessExperiment
{
    public static async Task RunAsync(Arguments arguments)
    {
        int appends = arguments.Int("--appends", 1000), pace = arguments.Int("--pace-ms", 10);
        Console.WriteLine($"staleness: {appends} appends {pace} ms apart, one writer process and one reader process");
        Console.WriteLine("| what | samples | p50 (ms) | p99 (ms) | p99.9 (ms) | max (ms) |");
        Console.WriteLine("|---|---|---|---|---|---|");
        await EventsTable.ResetAsync(arguments.Connection);
        (double[] commitRoundTrip, double[] notifyRoundTrip) = await RoundTripsAsync(arguments.Connection, appends, pace);
        Print("LISTEN/NOTIFY round trip: COMMIT of insert + notify, to heard", commitRoundTrip);
        Print("LISTEN/NOTIFY round trip: NOTIFY alone, to heard", notifyRoundTrip);
        Print("staleness, notifications on (package defaults)", await StalenessAsync(arguments, appends, pace, notify: true));
        Print("staleness, notifications off (poll every 1 s, the default)", await StalenessAsync(arguments, appends, pace, notify: false));
    }

    private static async Task<double[]> StalenessAsync(Arguments arguments, int appends, int pace, bool notify)
    {
        await EventsTable.ResetAsync(arguments.Connection);
        string root = Directory.CreateTempSubdirectory("eventfilter-pgstale-").FullName;
        string[] common = ["--connection", arguments.Connection, "--count", $"{appends}", "--pace-ms", $"{pace}", .. notify ? Array.Empty<string>() : ["--notify-off"]];
        using ChildProcess reader = ChildProcess.Start(["--role", "reader", "--directory", Path.Combine(root, "reader"), .. common]);
        using ChildProcess writer = ChildProcess.Start(["--role", "writer", "--directory", Path.Combine(root, "writer"), .. common]);
        try
        {
            await reader.ExpectAsync("ready");
            await writer.ExpectAsync("ready");
            await reader.SayAsync("go");
            await writer.SayAsync("go");
            (long End, long At)[] commits = Pairs(await writer.ExpectAsync("commits"));
            (long Position, long At)[] moves = Pairs(await reader.ExpectAsync("moves"));
            await writer.StopAsync();
            await reader.StopAsync();
            return [.. commits.Select(commit => Milliseconds(moves.First(move => move.Position >= commit.End).At - commit.At))];
        }
        finally
        {
            Directory.Delete(root, recursive: true);
        }
    }

    private static async Task<(double[] Commit, double[] Notify)> RoundTripsAsync(string connection, int samples, int pace)
    {
        await using NpgsqlDataSource database = NpgsqlDataSource.Create(connection);
        await using NpgsqlConnection listener = await database.OpenConnectionAsync();
        TaskCompletionSource<long> heard = new(TaskCreationOptions.RunContinuationsAsynchronously);
        listener.Notification += (_, _) => heard.TrySetResult(Stopwatch.GetTimestamp());
        await using (var listen = new NpgsqlCommand("listen bench_round_trip", listener))
        {
            await listen.ExecuteNonQueryAsync();
        }

        bool done = false;
        Task waits = Task.Run(async () =>
        {
            while (!Volatile.Read(ref done))
            {
                await listener.WaitAsync(100); // false after 100 ms with nothing heard: look at done again
            }
        });

        await using NpgsqlConnection sender = await database.OpenConnectionAsync();
        var commit = new double[samples];
        var notify = new double[samples];
        for (int i = 0; i < samples; i++)
        {
            await using (NpgsqlTransaction transaction = await sender.BeginTransactionAsync())
            {
                string stream = string.Create(CultureInfo.InvariantCulture, $"round-trip-{i}");
                await using var work = new NpgsqlCommand($"select pg_current_xact_id(); insert into events (stream_id, version, type, data) values ('{stream}', 0, 'Created', '{{}}'); select pg_notify('bench_round_trip', '')", sender, transaction);
                await work.ExecuteNonQueryAsync();
                heard = new(TaskCreationOptions.RunContinuationsAsynchronously);
                long committing = Stopwatch.GetTimestamp();
                await transaction.CommitAsync();
                commit[i] = Milliseconds(await heard.Task - committing);
            }

            heard = new(TaskCreationOptions.RunContinuationsAsynchronously);
            long sending = Stopwatch.GetTimestamp();
            await using (var alone = new NpgsqlCommand("select pg_notify('bench_round_trip', '')", sender))
            {
                await alone.ExecuteNonQueryAsync();
            }

            notify[i] = Milliseconds(await heard.Task - sending);
            await Task.Delay(pace);
        }

        Volatile.Write(ref done, true);
        await waits;
        return (commit, notify);
    }

    private static (long, long)[] Pairs(string text) =>
        [.. text.Split(',').Select(pair => pair.Split(':')).Select(p => (long.Parse(p[0], CultureInfo.InvariantCulture), long.Parse(p[1], CultureInfo.InvariantCulture)))];

    private static double Milliseconds(long ticks) => ticks * 1000.0 / Stopwatch.Frequency;

    private static void Print(string what, double[] samples)
    {
        double[] sorted = [.. samples.Order()];
        double At(double quantile) => sorted[Math.Min(sorted.Length - 1, (int)Math.Ceiling(quantile * sorted.Length) - 1)];
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture, $"| {what} | {sorted.Length} | {At(0.5):F3} | {At(0.99):F3} | {At(0.999):F3} | {sorted[^1]:F3} |"));
    }
}
