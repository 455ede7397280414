using System.Net;
using System.Text.Json;
using EventLog.Segments;

namespace EventLog.Server.Tests;

/// <summary>
/// The disk fills while the server runs (a small tmpfs, so root only): no append is acknowledged that is not durable,
/// none answered 503 is in the log after a restart, the server says it is unhealthy and why, stays readable, and after
/// space returns a restart takes appends again. When even the cut back fails (the engine's fault seam), the answer is
/// 500 "outcome unknown", never a 503.
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

    // Sixteen clients fill a 16 MB disk, so group commits carry several appends and a commit's write can be cut short
    // with some of its appends whole on the disk; 1 MiB segments add rolls. An append answered 503 must not be in the
    // log after the restart (a client that retries it with no-stream would get a 409 for its own write), a 201 must.
    // Pins the failure where appends answered 503 were found in the log after the restart.
    [RootFact]
    public async Task Appends_answered_503_on_a_full_disk_are_not_in_the_log_after_a_restart_and_those_answered_201_are()
    {
        using SmallTmpfs disk = SmallTmpfs.Mount(Path.Combine(_directory.Path, "disk"), kilobytes: 16 * 1024);
        string data = Path.Combine(disk.Path, "data");
        string ballast = Path.Combine(disk.Path, "ballast");
        await File.WriteAllBytesAsync(ballast, new byte[1024 * 1024]); // freed for the restart
        string[] settings = ["--stream-existence-filter-size", "64KB", "--EventLog:SegmentSizeBytes", "1048576"];
        string payload = JsonSerializer.Serialize(new string('x', 4000));
        var answers = new System.Collections.Concurrent.ConcurrentDictionary<string, HttpStatusCode>();

        await using (InProcessServer server = await InProcessServer.StartAsync(data, settings))
        {
            // Each client appends to new streams until the server refuses it.
            await Task.WhenAll(Enumerable.Range(0, 16).Select(client => Task.Run(async () =>
            {
                for (int i = 0; ; i++)
                {
                    string stream = $"c{client}-{i}";
                    ApiResponse answer = await server.Api.AppendAsync(stream, "no-stream", EventsApi.OneEvent("E", payload));
                    answers[stream] = answer.Status;
                    if (answer.Status != HttpStatusCode.Created)
                    {
                        Assert.True(answer.Status is HttpStatusCode.ServiceUnavailable or HttpStatusCode.InternalServerError, answer.ToString());
                        Assert.Equal("application/problem+json", answer.MediaType);
                        Assert.Contains("No space left on device", answer.Json.GetProperty("detail").GetString()!, StringComparison.Ordinal);
                        return;
                    }
                }
            })));
        }

        File.Delete(ballast);
        await using InProcessServer restarted = await InProcessServer.StartAsync(data, settings);
        int refused = 0;
        foreach ((string stream, HttpStatusCode status) in answers)
        {
            HttpStatusCode read = (await restarted.Api.ReadAsync(stream)).Status;
            if (status == HttpStatusCode.Created)
            {
                Assert.True(read == HttpStatusCode.OK, $"{stream} was answered 201 but reads {read} after the restart");
            }
            else if (status == HttpStatusCode.ServiceUnavailable)
            {
                refused++;
                Assert.True(read == HttpStatusCode.NotFound, $"{stream} was answered 503 but is in the log after the restart");
            }
        }

        Assert.True(refused > 0, "no append was refused");
    }

    // A failed write whose cut back fails too, through the engine's fault seam (no disk refuses a truncation on its
    // own): the append is answered 500 "outcome unknown", distinct from the 503 refusals of the appends after it.
    [Fact]
    public async Task An_append_whose_write_and_cut_back_both_fail_is_answered_500_outcome_unknown_not_503()
    {
        await using InProcessServer server = await InProcessServer.StartAsync(_directory.Path, "--stream-existence-filter-size", "64KB");
        Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync("before", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        server.Engine.DiskFaults = (step, bytes) => step is WriteStep.Write or WriteStep.Truncate ? bytes / 2 : null;

        ApiResponse unknown = await server.Api.AppendAsync("in-doubt", "no-stream", EventsApi.OneEvent("E", "2"));
        Assert.True(unknown.Status == HttpStatusCode.InternalServerError, unknown.ToString());
        Assert.Equal("application/problem+json", unknown.MediaType);
        Assert.Equal("https://tools.ietf.org/html/rfc9110#section-15.6.1", unknown.Json.GetProperty("type").GetString());
        Assert.Equal("Append outcome unknown", unknown.Json.GetProperty("title").GetString());
        Assert.Equal("in-doubt", unknown.Json.GetProperty("stream").GetString());
        Assert.Contains("may or may not be in the log", unknown.Json.GetProperty("detail").GetString()!, StringComparison.Ordinal);

        ApiResponse refused = await server.Api.AppendAsync("after", "no-stream", EventsApi.OneEvent("E", "3"));
        Assert.True(refused.Status == HttpStatusCode.ServiceUnavailable, refused.ToString());
        Assert.Equal("https://tools.ietf.org/html/rfc9110#section-15.6.4", refused.Json.GetProperty("type").GetString());
        Assert.Contains("This append was not written", refused.Json.GetProperty("detail").GetString()!, StringComparison.Ordinal);
    }

    // A rebuild needs a fresh file as large as the serving one: on a disk without that room it is refused with 507 and
    // the reason, instead of answered 202 and failing in the background. Once space returns it is accepted.
    [RootFact]
    public async Task A_rebuild_without_room_for_its_fresh_file_is_refused_with_507_and_starts_once_space_returns()
    {
        using SmallTmpfs disk = SmallTmpfs.Mount(Path.Combine(_directory.Path, "disk"), kilobytes: 8192);
        string data = Path.Combine(disk.Path, "data");
        await using InProcessServer server = await InProcessServer.StartAsync(data, "--stream-existence-filter-size", "1MB");
        await server.Api.WaitForFilterReadyAsync();
        string ballast = Path.Combine(disk.Path, "ballast");
        await File.WriteAllBytesAsync(ballast, new byte[new DriveInfo(disk.Path).AvailableFreeSpace - (256 * 1024)]);

        ApiResponse refused = await server.Api.SendAsync(HttpMethod.Post, "filter/rebuild");
        Assert.True(refused.Status == HttpStatusCode.InsufficientStorage, refused.ToString());
        Assert.Equal("application/problem+json", refused.MediaType);
        Assert.Contains("bytes beside the serving one", refused.Json.GetProperty("detail").GetString()!, StringComparison.Ordinal);
        Assert.Equal(JsonValueKind.Null, (await server.Api.FilterAsync()).GetProperty("rebuild").ValueKind);

        File.Delete(ballast);
        Assert.Equal(HttpStatusCode.Accepted, (await server.Api.SendAsync(HttpMethod.Post, "filter/rebuild")).Status);
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
