using Npgsql;

namespace PostgresEventStore.Tests;

/// <summary>
/// Two and three sample processes over one table, each appending from four clients; one is killed (kill -9) mid-load
/// and started again while the others go on. Afterwards every process has read to the table's end, and every stream in
/// the table is answered "maybe" by every process: none is lost below any filter's position.
/// </summary>
[Collection(PostgresCollection.Name)]
public sealed class SeveralProcessesTests(PostgresServer server) : IDisposable
{
    private const int ClientsPerProcess = 4;
    private const int AppendsPerPhase = 150;
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Theory]
    [InlineData(2)]
    [InlineData(3)]
    public async Task One_process_killed_mid_load_and_restarted_loses_no_stream_in_any_process(int processes)
    {
        await using NpgsqlDataSource database = await server.CreateDatabaseAsync();
        string Directory(int i) => Path.Combine(_directory.Path, $"process-{i}");
        var samples = new SampleProcess[processes];
        try
        {
            for (int i = 0; i < processes; i++)
            {
                samples[i] = await SampleProcess.StartAsync(database.ConnectionString, Directory(i));
            }

            await LoadAsync(samples, "before");
            Task during = LoadAsync(samples[1..], "during");
            await LoadAsync([samples[0]], "killed", killAfter: AppendsPerPhase / 2); // kill -9 with appends in flight
            await during;
            samples[0].Dispose();
            samples[0] = await SampleProcess.StartAsync(database.ConnectionString, Directory(0));
            await LoadAsync(samples, "after");

            List<string> streams = await StreamsAsync(database);
            long end = await ScalarAsync(database, "select max(global_position) + 1 from events");
            foreach (SampleProcess sample in samples)
            {
                await Poll.UntilAsync(async () => await sample.ReadPositionAsync() >= end, "every process to read to the table's end");
                var lost = new List<string>();
                foreach (string stream in streams)
                {
                    if (!await sample.MightExistAsync(stream))
                    {
                        lost.Add(stream);
                    }
                }

                Assert.True(lost.Count == 0, $"{lost.Count} of {streams.Count} streams answered \"definitely not\" by {sample.Http.BaseAddress}: {string.Join(", ", lost.Take(10))}");
            }

            Assert.True(streams.Count >= processes * AppendsPerPhase * 2, $"only {streams.Count} streams were appended");
        }
        finally
        {
            foreach (SampleProcess? sample in samples)
            {
                sample?.Dispose();
            }
        }
    }

    // Each process takes appends from its clients until it has acknowledged AppendsPerPhase new streams; with killAfter,
    // the process is killed once that many were acknowledged, while its clients keep sending.
    private static Task LoadAsync(SampleProcess[] samples, string phase, int? killAfter = null) => Task.WhenAll(samples.Select((sample, p) =>
    {
        int next = -1, acknowledged = 0;
        return Task.WhenAll(Enumerable.Range(0, ClientsPerProcess).Select(_ => Task.Run(async () =>
        {
            while (Volatile.Read(ref acknowledged) < AppendsPerPhase)
            {
                if (!await sample.TryAppendAsync($"{phase}-{sample.Http.BaseAddress!.Port}-{Interlocked.Increment(ref next)}"))
                {
                    return; // killed
                }

                if (Interlocked.Increment(ref acknowledged) == killAfter)
                {
                    sample.Kill();
                }
            }
        })));
    }));

    private static async Task<List<string>> StreamsAsync(NpgsqlDataSource database)
    {
        var streams = new List<string>();
        await using NpgsqlCommand command = database.CreateCommand("select stream_id from events");
        await using NpgsqlDataReader reader = await command.ExecuteReaderAsync();
        while (await reader.ReadAsync())
        {
            streams.Add(reader.GetString(0));
        }

        return streams;
    }

    private static async Task<long> ScalarAsync(NpgsqlDataSource database, string sql)
    {
        await using NpgsqlCommand command = database.CreateCommand(sql);
        return (long)(await command.ExecuteScalarAsync())!;
    }
}
