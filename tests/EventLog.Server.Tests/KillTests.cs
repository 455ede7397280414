using System.Collections.Concurrent;
using System.Globalization;
using System.Net;
using System.Text.Json;
using Xunit.Abstractions;

namespace EventLog.Server.Tests;

/// <summary>
/// The server killed with SIGKILL in the middle of a client load, then restarted: every acknowledged (201) append is
/// readable, the filter catches up, and it never answers "definitely not" for an acknowledged stream.
/// </summary>
public sealed class KillTests(ITestOutputHelper output)
{
    private const int LoadClients = 16;

    [Fact]
    public async Task Killed_mid_load_every_acknowledged_append_survives_and_the_filter_never_says_definitely_not()
    {
        using var directory = new TempDirectory();
        var acknowledged = new ConcurrentDictionary<string, long>(StringComparer.Ordinal);
        var random = new Random(20_261_122);
        int rounds = ReliabilityScale.Full ? 12 : 3;

        for (int round = 0; round < rounds; round++)
        {
            // A 1 s checkpoint interval, so that the kill lands among checkpoints taken under load.
            using ServerProcess server = await ServerProcess.StartAsync(directory.Path, "--StreamExistenceFilter:CheckpointInterval", "00:00:01");
            await VerifyAsync(server.Api, acknowledged);
            Report(round, server, acknowledged.Count);

            int before = acknowledged.Count;
            long startEnd = (await server.Api.FilterAsync()).GetProperty("logEndPosition").GetInt64();
            using var stopLoad = new CancellationTokenSource();
            Task load = LoadAsync(server.Api.Address, round, acknowledged, stopLoad.Token);
            await Poll.UntilAsync(() => acknowledged.Count >= before + 300, () => $"300 more acknowledged appends under load:\n{server.Output}");

            // Kill only after a checkpoint taken under this round's load: the crash then tests its position too.
            await WaitForCheckpointPastAsync(server, startEnd);
            await Task.Delay(random.Next(0, 300));
            server.Kill();
            await stopLoad.CancelAsync();
            await load;
        }

        using ServerProcess last = await ServerProcess.StartAsync(directory.Path);
        await VerifyAsync(last.Api, acknowledged);
        Report(rounds, last, acknowledged.Count);
        Assert.Equal(0, await last.InterruptAsync(Poll.Bound));
    }

    private void Report(int round, ServerProcess server, int verified)
    {
        string recovery = string.Join(" | ", server.Output.Split('\n').Where(line => line.Contains("torn tail", StringComparison.Ordinal) || line.Contains("caught up", StringComparison.Ordinal)));
        output.WriteLine($"start {round}: {verified} acknowledged streams verified; {recovery}");
    }

    // Each client appends to new streams until the server dies under it; only a 201 counts as acknowledged.
    private static async Task LoadAsync(Uri address, int round, ConcurrentDictionary<string, long> acknowledged, CancellationToken stop)
    {
        async Task ClientAsync(int client)
        {
            using var api = new EventsApi(address);
            for (long i = 0; !stop.IsCancellationRequested; i++)
            {
                string stream = $"r{round}-c{client}-{i}";
                try
                {
                    ApiResponse answer = await api.AppendAsync(stream, "no-stream", EventsApi.OneEvent("Created", i.ToString(CultureInfo.InvariantCulture)));
                    Assert.Equal(HttpStatusCode.Created, answer.Status);
                    acknowledged[stream] = i;
                }
                catch (Exception error) when (error is HttpRequestException or OperationCanceledException)
                {
                    return; // killed: this append may or may not be in the log, and was never acknowledged
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, LoadClients).Select(client => Task.Run(() => ClientAsync(client))));
    }

    private static async Task VerifyAsync(EventsApi api, ConcurrentDictionary<string, long> acknowledged)
    {
        await api.WaitForFilterReadyAsync();

        var pending = new ConcurrentQueue<KeyValuePair<string, long>>(acknowledged);
        await Task.WhenAll(Enumerable.Range(0, 8).Select(_ => Task.Run(async () =>
        {
            while (pending.TryDequeue(out KeyValuePair<string, long> entry))
            {
                ApiResponse read = await api.ReadAsync(entry.Key);
                Assert.True(read.Status == HttpStatusCode.OK, $"acknowledged stream {entry.Key} lost: {read}");
                JsonElement events = read.Json.GetProperty("events");
                Assert.Equal(1, events.GetArrayLength());
                Assert.Equal(entry.Value, events[0].GetProperty("data").GetInt64());
                Assert.True(await api.MightExistAsync(entry.Key), $"the filter says acknowledged stream {entry.Key} definitely does not exist");
            }
        })));
    }

    private static Task WaitForCheckpointPastAsync(ServerProcess server, long position) => Poll.UntilAsync(
        async () => (await server.Api.FilterAsync()).GetProperty("checkpointPosition").GetInt64() > position,
        () => $"a checkpoint past {position} under load:\n{server.Output}");
}
