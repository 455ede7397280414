using EventFilter;
using Npgsql;

namespace PostgresEventStore;

/// <summary>
/// <c>--bench</c>: appends one event to each of N new streams through the store (over M existing ones, whose names the
/// filter reads as it catches up, untimed), C clients at a time, with the filter
/// in front (16 MB) and with none (size 0: every append looks its stream up), alternating, on an emptied table each
/// time, after one short warm-up of each; prints each run's rate and the filter's ratio to the run without it beside it
/// (docs/hosting-guide.md, "What the filter buys here"). With track_commit_timestamp on, it also counts the last run's
/// rows that committed out of position order.
/// </summary>
internal static class StreamCreationBench
{
    // Streams already in the table before each run (--existing): the index the lookups walk.
    private static int Existing { get; set; }

    /// <summary>Runs the bench as <paramref name="args"/> say, timing each run on <paramref name="time"/>.</summary>
    public static async Task<int> RunAsync(string[] args, TimeProvider time)
    {
        string? connection = Value(args, "--connection");
        if (connection is null)
        {
            Console.Error.WriteLine("usage: --bench --connection \"Host=...;Username=...;Database=...\" [--streams 20000] [--existing 0] [--clients 32] [--writers 4] [--rounds 3]");
            return 2;
        }

        int streams = int.Parse(Value(args, "--streams") ?? "20000"), clients = int.Parse(Value(args, "--clients") ?? "32");
        int writers = int.Parse(Value(args, "--writers") ?? "4"), rounds = int.Parse(Value(args, "--rounds") ?? "3");
        Existing = int.Parse(Value(args, "--existing") ?? "0");
        await using NpgsqlDataSource database = NpgsqlDataSource.Create(connection);
        Console.WriteLine($"{streams} new streams over {Existing} existing, {clients} clients, {writers} writers, {Environment.ProcessorCount} cores");
        await RunOnceAsync(database, time, 0, streams / 10, clients, writers); // warm-up (JIT, connections), not reported
        await RunOnceAsync(database, time, 16_000_000, streams / 10, clients, writers);
        for (int round = 1; round <= rounds; round++)
        {
            // Alternate which goes first, so that neither always runs on the warmer machine.
            bool noneFirst = round % 2 == 1;
            double first = await RunOnceAsync(database, time, noneFirst ? 0 : 16_000_000, streams, clients, writers);
            double second = await RunOnceAsync(database, time, noneFirst ? 16_000_000 : 0, streams, clients, writers);
            (double none, double filter) = noneFirst ? (first, second) : (second, first);
            Console.WriteLine($"round {round} ({(noneFirst ? "none" : "filter")} first): none {none:F0}/s, filter-16MB {filter:F0}/s, ratio {filter / none:F2}");
        }

        await using NpgsqlCommand order = database.CreateCommand(CommitOrder);
        await using NpgsqlDataReader last = await order.ExecuteReaderAsync();
        if (await last.ReadAsync() && !last.IsDBNull(0))
        {
            Console.WriteLine($"last run: {last.GetInt64(2)} rows in {last.GetInt64(1)} transactions, {last.GetInt64(0)} committed before a row with a lower position");
        }

        return 0;
    }

    // With track_commit_timestamp on: the rows that committed before some row with a lower position (out of order).
    private const string CommitOrder = """
        with commits as (
            select pg_xact_commit_timestamp(xmin) as committed,
                   max(pg_xact_commit_timestamp(xmin)) over (order by global_position rows between unbounded preceding and 1 preceding) as lower_latest
            from events where current_setting('track_commit_timestamp') = 'on')
        select count(*) filter (where committed < lower_latest), (select count(distinct xmin::text) from events), count(*)
        from commits having count(*) > 0
        """;

    private static async Task<double> RunOnceAsync(NpgsqlDataSource database, TimeProvider time, long sizeBytes, int streams, int clients, int writers)
    {
        await using (NpgsqlCommand drop = database.CreateCommand("drop table if exists events"))
        {
            await drop.ExecuteNonQueryAsync();
        }

        await EventsTable.CreateAsync(database);
        await ExecuteAsync(database, $"insert into events (stream_id, version, type, data) select 'existing-' || i, 0, 'Created', '{{}}' from generate_series(1, {Existing}) i");

        // Settle the fill before the clock starts: hint bits and statistics (vacuum), and its pages on disk (checkpoint,
        // which needs the pg_checkpoint role; without it the run goes on, and may meet a checkpoint of the fill).
        await ExecuteAsync(database, "vacuum analyze events");
        try
        {
            await ExecuteAsync(database, "checkpoint");
        }
        catch (PostgresException denied) when (denied.SqlState == PostgresErrorCodes.InsufficientPrivilege)
        {
            // Not allowed to: measured without it, as said above.
        }

        var end = new HighWaterMark(database);
        await end.RefreshAsync(); // sees what the fill allocated
        await end.RefreshAsync(); // settles it: the filter catches up to past the fill
        string directory = Directory.CreateTempSubdirectory("postgres-bench-").FullName;
        try
        {
            using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = directory, SizeBytes = sizeBytes, TimeProvider = time }, new PostgresStreamLog(database, end));
            filter.Open();
            await filter.CatchUpAsync(CancellationToken.None);
            using var store = new AppendWriters(new GroupCommit(database, filter, end), writers);
            await store.StartAsync(CancellationToken.None);
            int next = -1;
            long started = time.GetTimestamp();
            await Task.WhenAll(Enumerable.Range(0, clients).Select(_ => Task.Run(async () =>
            {
                for (int i = Interlocked.Increment(ref next); i < streams; i = Interlocked.Increment(ref next))
                {
                    AppendResult result = await store.AppendAsync(new Append($"bench-{i}", Append.NoStream, [new EventData("Created", "{}")]));
                    if (!result.Appended)
                    {
                        throw new InvalidOperationException($"bench-{i} was refused at version {result.CurrentVersion}");
                    }
                }
            })));
            double rate = streams / time.GetElapsedTime(started).TotalSeconds;
            await store.StopAsync(CancellationToken.None);
            filter.Checkpoint(end.Value);
            return rate;
        }
        finally
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    private static async Task ExecuteAsync(NpgsqlDataSource database, string sql)
    {
        await using NpgsqlCommand command = database.CreateCommand(sql);
        await command.ExecuteNonQueryAsync();
    }

    private static string? Value(string[] args, string name) => args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();
}
