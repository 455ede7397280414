using System.Net;
using System.Text.Json;

namespace EventLog.Server.Tests;

/// <summary>
/// The disk fills while the server runs (a small tmpfs, so root only): no append is acknowledged that is not durable,
/// the server says it is unhealthy and why, stays readable, and after space returns a restart takes appends again.
/// </summary>
public sealed class DiskFullTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [RootFact]
    public async Task A_full_disk_stops_appends_with_503_keeps_reads_and_a_restart_after_space_returns_loses_nothing()
    {
        using SmallTmpfs disk = SmallTmpfs.Mount(Path.Combine(_directory.Path, "disk"), kilobytes: 4096);
        string data = Path.Combine(disk.Path, "data");
        string ballast = Path.Combine(disk.Path, "ballast");
        await File.WriteAllBytesAsync(ballast, new byte[1024 * 1024]); // freed later: the space that "returns"
        string payload = JsonSerializer.Serialize(new string('x', 4000));
        var acknowledged = new List<string>();
        ApiResponse refused;

        await using (InProcessServer server = await InProcessServer.StartAsync(data, "--stream-existence-filter-size", "64KB"))
        {
            // One append at a time until the disk refuses one: each 201 must have been durable when it was sent.
            while (true)
            {
                string stream = $"s-{acknowledged.Count}";
                ApiResponse answer = await server.Api.AppendAsync(stream, "no-stream", EventsApi.OneEvent("E", payload));
                if (answer.Status != HttpStatusCode.Created)
                {
                    refused = answer;
                    break;
                }

                acknowledged.Add(stream);
            }

            Assert.True(refused.Status == HttpStatusCode.ServiceUnavailable, refused.ToString());
            Assert.Equal("application/problem+json", refused.MediaType);
            string detail = refused.Json.GetProperty("detail").GetString()!;
            Assert.Contains("No space left on device", detail, StringComparison.Ordinal);
            Assert.Contains("restart", detail, StringComparison.Ordinal);

            ApiResponse health = await server.Api.SendAsync(HttpMethod.Get, "health");
            Assert.Equal(HttpStatusCode.ServiceUnavailable, health.Status);
            Assert.Equal("Unhealthy", health.Json.GetProperty("checks").GetProperty("event-log").GetProperty("status").GetString());

            // Still readable, and still refusing: the engine does not guess whether its tail reached the disk.
            await AssertReadableAsync(server.Api, acknowledged, payload);
            File.Delete(ballast);
            Assert.Equal(HttpStatusCode.ServiceUnavailable, (await server.Api.AppendAsync("after-space-returns", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        }

        await using InProcessServer restarted = await InProcessServer.StartAsync(data, "--stream-existence-filter-size", "64KB");
        await AssertReadableAsync(restarted.Api, acknowledged, payload);
        Assert.Equal(HttpStatusCode.Created, (await restarted.Api.AppendAsync("after-restart", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        Assert.Equal(HttpStatusCode.OK, (await restarted.Api.SendAsync(HttpMethod.Get, "health")).Status);
    }

    private static async Task AssertReadableAsync(EventsApi api, List<string> acknowledged, string payload)
    {
        Assert.NotEmpty(acknowledged);
        foreach (string stream in acknowledged)
        {
            ApiResponse read = await api.ReadAsync(stream);
            Assert.True(read.Status == HttpStatusCode.OK, $"acknowledged {stream}: {read}");
            Assert.Equal(payload, read.Json.GetProperty("events")[0].GetProperty("data").GetRawText());
        }
    }
}
