using System.Collections.Concurrent;
using System.Net;
using System.Text.Json;

namespace EventLog.Server.Tests;

/// <summary>Several clients racing to append to one stream with exact expected versions, over HTTP.</summary>
public sealed class ConcurrentAppendTests
{
    private const int Clients = 8;
    private const int EventsWanted = 200;

    [Fact]
    public async Task Racing_clients_with_exact_versions_win_each_version_once_and_lose_or_duplicate_nothing()
    {
        using var directory = new TempDirectory();
        await using InProcessServer server = await InProcessServer.StartAsync(directory.Path);
        var wins = new ConcurrentDictionary<long, string>();   // expected version -> the event that won it
        var acknowledged = new ConcurrentBag<string>();
        long conflicts = 0;

        async Task ClientAsync(int client)
        {
            using var api = new EventsApi(server.Address);
            long expected = -1; // believed last event number; -1: no stream yet
            for (int attempt = 0; wins.Count < EventsWanted; attempt++)
            {
                string id = $"c{client}-a{attempt}";
                ApiResponse answer = await api.AppendAsync("race", expected < 0 ? "no-stream" : expected.ToString(System.Globalization.CultureInfo.InvariantCulture), EventsApi.OneEvent("Raced", JsonSerializer.Serialize(id)));
                if (answer.Status == HttpStatusCode.Created)
                {
                    Assert.True(wins.TryAdd(expected, id), $"version {expected} was won twice");
                    Assert.Equal(expected + 1, answer.Number("firstEventNumber"));
                    acknowledged.Add(id);
                    expected = answer.Number("lastEventNumber");
                }
                else
                {
                    Assert.Equal(HttpStatusCode.Conflict, answer.Status);
                    Interlocked.Increment(ref conflicts);
                    expected = answer.Number("currentVersion"); // the 409 says where the stream is now
                }
            }
        }

        await Task.WhenAll(Enumerable.Range(0, Clients).Select(client => Task.Run(() => ClientAsync(client))));

        // Every acknowledged event is in the stream exactly once, numbered in the order of the versions it won.
        var read = new List<string>();
        for (long from = 0; ; from += 100)
        {
            JsonElement page = (await server.Api.ReadAsync("race", from, 100)).Json;
            read.AddRange(page.GetProperty("events").EnumerateArray().Select(e => e.GetProperty("data").GetString()!));
            if (page.GetProperty("isEndOfStream").GetBoolean())
            {
                break;
            }
        }

        Assert.Equal(acknowledged.Count, read.Count);
        Assert.Equal(read.Count, read.Distinct().Count());
        Assert.Equal(acknowledged.OrderBy(x => x, StringComparer.Ordinal), read.OrderBy(x => x, StringComparer.Ordinal));
        for (int number = 0; number < read.Count; number++)
        {
            Assert.Equal(wins[number - 1], read[number]);
        }

        Assert.True(Interlocked.Read(ref conflicts) > 0, "the clients never actually raced");
    }
}
