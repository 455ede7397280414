using System.Net;
using System.Text.Json;

namespace EventLog.Server.Tests;

/// <summary>End to end over real HTTP on a loopback port: appends, reads, expected versions, the filter and health.</summary>
public sealed class AppendAndReadTests : IAsyncLifetime
{
    private readonly TempDirectory _directory = new();
    private InProcessServer _server = null!;

    private EventsApi Api => _server.Api;

    public async Task InitializeAsync() => _server = await InProcessServer.StartAsync(_directory.Path);

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _directory.Dispose();
    }

    [Fact]
    public async Task Append_returns_201_with_event_numbers_and_position_and_the_read_returns_the_events_verbatim()
    {
        const string body = """[{"type":"OrderPlaced","data":{"total":12,"lines":[1,2]},"metadata":{"by":"me"}},{"type":"OrderPaid","data":"cash"}]""";
        ApiResponse created = await Api.AppendAsync("order-17", "no-stream", body);

        Assert.Equal(HttpStatusCode.Created, created.Status);
        Assert.Equal(0, created.Number("firstEventNumber"));
        Assert.Equal(1, created.Number("lastEventNumber"));
        Assert.Equal(0, created.Number("position"));

        ApiResponse read = await Api.ReadAsync("order-17");
        Assert.Equal(HttpStatusCode.OK, read.Status);
        JsonElement slice = read.Json;
        Assert.Equal("order-17", slice.GetProperty("stream").GetString());
        Assert.Equal(1, slice.GetProperty("lastEventNumber").GetInt64());
        Assert.True(slice.GetProperty("isEndOfStream").GetBoolean());
        JsonElement[] events = [.. slice.GetProperty("events").EnumerateArray()];
        Assert.Equal(2, events.Length);
        Assert.Equal("OrderPlaced", events[0].GetProperty("type").GetString());
        Assert.Equal("""{"total":12,"lines":[1,2]}""", events[0].GetProperty("data").GetRawText());
        Assert.Equal("""{"by":"me"}""", events[0].GetProperty("metadata").GetRawText());
        Assert.Equal("\"cash\"", events[1].GetProperty("data").GetRawText());
        Assert.Equal(JsonValueKind.Null, events[1].GetProperty("metadata").ValueKind);
        Assert.Equal(1, events[1].GetProperty("eventNumber").GetInt64());
    }

    [Fact]
    public async Task Expected_versions_any_no_stream_exists_and_exact_are_honoured_and_a_mismatch_is_409_with_the_current_version()
    {
        string one = EventsApi.OneEvent("Happened", "1");
        Assert.Equal(HttpStatusCode.Conflict, (await Api.AppendAsync("s", "exists", one)).Status);
        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("s", "no-stream", one)).Status);
        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("s", "exists", one)).Status);
        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("s", "1", one)).Status);
        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("s", null, one)).Status);
        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("s", "any", one)).Status);

        ApiResponse conflict = await Api.AppendAsync("s", "2", one);
        Assert.Equal(HttpStatusCode.Conflict, conflict.Status);
        Assert.Equal("application/problem+json", conflict.MediaType);
        Assert.Equal(4, conflict.Number("currentVersion"));
        Assert.Equal(HttpStatusCode.Conflict, (await Api.AppendAsync("s", "no-stream", one)).Status);

        ApiResponse missing = await Api.AppendAsync("never", "0", one);
        Assert.Equal(-1, missing.Number("currentVersion"));
        Assert.Equal(5, (await Api.ReadAsync("s")).Json.GetProperty("events").GetArrayLength());
    }

    [Fact]
    public async Task Reads_page_forward_with_from_and_count_and_a_missing_stream_is_404()
    {
        string body = "[" + string.Join(",", Enumerable.Range(0, 10).Select(i => $$"""{"type":"E","data":{{i}}}""")) + "]";
        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("paged", "no-stream", body)).Status);

        JsonElement page = (await Api.ReadAsync("paged", from: 3, count: 4)).Json;
        Assert.Equal([3L, 4, 5, 6], page.GetProperty("events").EnumerateArray().Select(e => e.GetProperty("eventNumber").GetInt64()));
        Assert.Equal(7, page.GetProperty("nextEventNumber").GetInt64());
        Assert.False(page.GetProperty("isEndOfStream").GetBoolean());
        Assert.Equal(0, (await Api.ReadAsync("paged", from: 10)).Json.GetProperty("events").GetArrayLength());

        ApiResponse missing = await Api.ReadAsync("no-such-stream");
        Assert.Equal(HttpStatusCode.NotFound, missing.Status);
        Assert.Equal("application/problem+json", missing.MediaType);
    }

    [Fact]
    public async Task Stream_names_are_exact_bytes_so_an_encoded_slash_and_unicode_round_trip()
    {
        foreach (string name in new[] { "a/b", "a%2Fb", "ordre-é-✓", "emoji-😀", "with space", "q?x=1" })
        {
            Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync(name, "no-stream", EventsApi.OneEvent("E", "1"))).Status);
            ApiResponse read = await Api.ReadAsync(name);
            Assert.Equal(name, read.Json.GetProperty("stream").GetString());
            Assert.True(await Api.MightExistAsync(name));
        }

        Assert.Equal(HttpStatusCode.NotFound, (await Api.ReadAsync("a")).Status);
    }

    [Fact]
    public async Task The_filter_endpoint_reports_ready_and_answers_definitely_not_for_a_new_stream()
    {
        JsonElement filter = await Api.WaitForFilterReadyAsync();
        Assert.Equal("Ready", filter.GetProperty("state").GetString());
        Assert.Equal(1_000_000, filter.GetProperty("statistics").GetProperty("sizeBytes").GetInt64());
        Assert.Equal(JsonValueKind.Null, filter.GetProperty("resize").ValueKind); // no resize under way (ResizeStatusTests has one)

        Assert.Equal(HttpStatusCode.Created, (await Api.AppendAsync("known", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        Assert.True(await Api.MightExistAsync("known"));
        Assert.False(await Api.MightExistAsync("unknown-stream-name-that-was-never-written"));

        JsonElement after = await Api.FilterAsync();
        Assert.True(after.GetProperty("adds").GetInt64() >= 1);
        Assert.True(after.GetProperty("lookups").GetProperty("definitely-not").GetInt64() >= 1, "the lookups are keyed by the metric tag's values");
        Assert.Equal(["definitely-not", "maybe", "not-ready"], [.. after.GetProperty("lookups").EnumerateObject().Select(p => p.Name)]);
        Assert.True(after.GetProperty("index").GetProperty("streamFilterNegatives").GetInt64() >= 1, "the append to a new stream skipped the index");
        Assert.Equal(_server.LogEnd, after.GetProperty("logEndPosition").GetInt64());
    }

    [Fact]
    public async Task Health_reports_the_engine_and_the_filter_as_json()
    {
        await Api.WaitForFilterReadyAsync();
        ApiResponse health = await Api.SendAsync(HttpMethod.Get, "health");

        Assert.Equal(HttpStatusCode.OK, health.Status);
        JsonElement report = health.Json;
        Assert.Equal("Healthy", report.GetProperty("status").GetString());
        Assert.Equal("Healthy", report.GetProperty("checks").GetProperty("event-log").GetProperty("status").GetString());
        JsonElement filter = report.GetProperty("checks").GetProperty("stream-existence-filter");
        Assert.Equal("Ready", filter.GetProperty("data").GetProperty("state").GetString());
    }
}
