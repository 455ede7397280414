using System.Net;
using System.Text;

namespace EventLog.Server.Tests;

/// <summary>
/// Every kind of bad request gets a 4xx application/problem+json that says why, writes nothing (the log's end does
/// not move) and leaves the server serving.
/// </summary>
public sealed class BadInputTests : IAsyncLifetime
{
    private static readonly string OneEvent = EventsApi.OneEvent("E", "1");

    private readonly TempDirectory _directory = new();
    private InProcessServer _server = null!;

    public static TheoryData<string, string, string> BadAppends => new()
    {
        // case, relative URI, body
        { "invalid JSON", "streams/s", "[{\"type\":" },
        { "not an array", "streams/s", "{\"type\":\"E\",\"data\":1}" },
        { "null body", "streams/s", "null" },
        { "empty body", "streams/s", "" },
        { "no events", "streams/s", "[]" },
        { "null event", "streams/s", "[null]" },
        { "missing type", "streams/s", "[{\"data\":1}]" },
        { "null type", "streams/s", "[{\"type\":null,\"data\":1}]" },
        { "empty type", "streams/s", "[{\"type\":\"\",\"data\":1}]" },
        { "type over 255 bytes", "streams/s", EventsApi.OneEvent(new string('t', 256), "1") },
        { "type not a string", "streams/s", "[{\"type\":5,\"data\":1}]" },
        { "missing data", "streams/s", "[{\"type\":\"E\"}]" },
        { "unknown property", "streams/s", "[{\"type\":\"E\",\"data\":1,\"dta\":2}]" },
        { "duplicate property", "streams/s", "[{\"type\":\"E\",\"type\":\"F\",\"data\":1}]" },
        { "lone surrogate in type", "streams/s", "[{\"type\":\"\\ud800\",\"data\":1}]" },
        { "too many events", "streams/s", "[" + string.Join(",", Enumerable.Repeat("{\"type\":\"E\",\"data\":0}", 10_001)) + "]" },
        { "nested 65 deep", "streams/s", EventsApi.OneEvent("E", new string('[', 63) + new string(']', 63)) },
        { "nested 100,000 deep", "streams/s", EventsApi.OneEvent("E", new string('[', 100_000) + new string(']', 100_000)) },
        { "empty stream name", "streams/", OneEvent },
        { "no stream segment", "streams", OneEvent },
        { "stream name over 1,000 bytes", "streams/" + new string('a', 1001), OneEvent },
        { "stream name over 1,000 bytes in 2-byte characters", "streams/" + Uri.EscapeDataString(new string('é', 501)), OneEvent },
        { "invalid UTF-8 in the name", "streams/%FF", OneEvent },
        { "truncated UTF-8 in the name", "streams/%C3%28", OneEvent },
        { "encoded surrogate in the name", "streams/%ED%A0%80", OneEvent },
        { "non-numeric expectedVersion", "streams/s?expectedVersion=abc", OneEvent },
        { "negative expectedVersion", "streams/s?expectedVersion=-1", OneEvent },
        { "fractional expectedVersion", "streams/s?expectedVersion=1.5", OneEvent },
        { "empty expectedVersion", "streams/s?expectedVersion=", OneEvent },
        { "overflowing expectedVersion", "streams/s?expectedVersion=99999999999999999999", OneEvent },
        { "expectedVersion twice", "streams/s?expectedVersion=any&expectedVersion=any", OneEvent },
        { "expectedVersion twice in two spellings", "streams/s?expectedVersion=any&ExpectedVersion=any", OneEvent },

        // Regression: long.TryParse ignores trailing NULs, so these were read as 1 and appended.
        { "NUL after expectedVersion", "streams/s?expectedVersion=1%00", OneEvent },
        { "NULs after expectedVersion -1's digits", "streams/s?expectedVersion=0%00%00", OneEvent },
        { "NUL before expectedVersion", "streams/s?expectedVersion=%000", OneEvent },
        { "NUL after no-stream", "streams/s?expectedVersion=no-stream%00", OneEvent },

        // Regression: control characters were accepted in names ("rp\rcr").
        { "percent-encoded CR in the name", "streams/rp%0Dcr", OneEvent },
        { "percent-encoded LF in the name", "streams/a%0A", OneEvent },
        { "percent-encoded TAB in the name", "streams/a%09b", OneEvent },
        { "percent-encoded 0x01 in the name", "streams/%01", OneEvent },
        { "percent-encoded 0x1F in the name", "streams/a%1F", OneEvent },
        { "percent-encoded DEL in the name", "streams/a%7Fb", OneEvent },
    };

    public async Task InitializeAsync() => _server = await InProcessServer.StartAsync(_directory.Path);

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _directory.Dispose();
    }

    [Theory]
    [MemberData(nameof(BadAppends))]
    public async Task A_bad_append_is_400_problem_json_and_writes_nothing(string @case, string uri, string body)
    {
        long end = _server.LogEnd;
        ApiResponse answer = await _server.Api.SendAsync(HttpMethod.Post, uri, Encoding.UTF8.GetBytes(body));

        Assert.True(answer.Status == HttpStatusCode.BadRequest, $"{@case}: {answer}");
        AssertProblem(answer);
        Assert.Equal(end, _server.LogEnd);
        Assert.Equal(HttpStatusCode.NotFound, (await _server.Api.ReadAsync("s")).Status);
    }

    [Fact]
    public async Task Invalid_UTF8_in_the_body_is_400_even_inside_a_string_that_is_stored_raw()
    {
        long end = _server.LogEnd;
        byte[] body = [.. "[{\"type\":\"E\",\"data\":\""u8, 0xFF, 0xFE, .. "\"}]"u8];
        ApiResponse answer = await _server.Api.SendAsync(HttpMethod.Post, "streams/s", body);

        Assert.Equal(HttpStatusCode.BadRequest, answer.Status);
        Assert.Contains("UTF-8", answer.Json.GetProperty("detail").GetString(), StringComparison.Ordinal);
        Assert.Equal(end, _server.LogEnd);
    }

    [Fact]
    public async Task A_body_over_1_MiB_is_413_problem_json_and_writes_nothing()
    {
        long end = _server.LogEnd;
        byte[] body = Encoding.UTF8.GetBytes(EventsApi.OneEvent("E", "\"" + new string('x', 1024 * 1024) + "\""));
        ApiResponse answer = await _server.Api.SendAsync(HttpMethod.Post, "streams/s", body, expectContinue: true);

        Assert.Equal(HttpStatusCode.RequestEntityTooLarge, answer.Status);
        AssertProblem(answer);
        Assert.Equal(end, _server.LogEnd);
        Assert.Equal(HttpStatusCode.Created, (await _server.Api.AppendAsync("after", "no-stream", OneEvent)).Status);
    }

    [Theory]
    [InlineData("raw invalid UTF-8 byte", "/streams/\\xFF")]
    [InlineData("raw overlong encoding", "/streams/\\xC0\\xAF")]
    [InlineData("malformed percent-encoding", "/streams/%G1")]
    [InlineData("cut percent-encoding", "/streams/ab%4")]
    [InlineData("dot segments", "/streams/x/../s")]
    [InlineData("encoded dot segments", "/streams/x/%2e%2E/s")]
    [InlineData("percent-encoded NUL in the name (Kestrel's own plain 400)", "/streams/a%00b")]
    [InlineData("raw CR in the name", "/streams/rp\\x0Dcr")]
    [InlineData("raw TAB in the name", "/streams/a\\x09b")]
    [InlineData("raw 0x01 in the name", "/streams/a\\x01b")]
    [InlineData("raw 0x1F in the name", "/streams/\\x1F")]
    [InlineData("raw DEL in the name", "/streams/a\\x7Fb")]
    [InlineData("raw TAB after expectedVersion", "/streams/s?expectedVersion=1\\x09")]
    public async Task A_request_target_HttpClient_would_not_send_is_400_and_writes_nothing(string @case, string target)
    {
        long end = _server.LogEnd;
        (int status, string response) = await RawHttp.SendAsync(_server.Address, "POST", RawHttp.Target(target), Encoding.UTF8.GetBytes(OneEvent));

        Assert.True(status == 400, $"{@case}: {response}");
        Assert.Equal(end, _server.LogEnd);
        Assert.Equal(HttpStatusCode.NotFound, (await _server.Api.ReadAsync("s")).Status);
    }

    // A raw LF ends the request line where it stands, so Kestrel reads no HTTP version after the target and answers 505
    // itself; docs/server.md says so (it said 400).
    [Fact]
    public async Task A_raw_line_feed_in_the_request_line_is_Kestrels_505_and_writes_nothing()
    {
        long end = _server.LogEnd;
        (int status, string response) = await RawHttp.SendAsync(_server.Address, "POST", RawHttp.Target("/streams/a\\x0Ab"), Encoding.UTF8.GetBytes(OneEvent));

        Assert.True(status == 505, response);
        Assert.Equal(end, _server.LogEnd);
    }

    // Regression: Kestrel resolves dot segments, raw or percent-encoded, before routing, so a stream named ".." sent as
    // %2E%2E (or a path through one) reached another endpoint: GET /filter/streams/%2E%2e was served as GET /filter (200).
    [Theory]
    [InlineData("GET", "/filter/streams/%2E%2e")]
    [InlineData("GET", "/filter/streams/..")]
    [InlineData("GET", "/filter/streams/.")]
    [InlineData("GET", "/streams/%2e%2E")]
    [InlineData("GET", "/streams/x/%2E%2E/s")]
    [InlineData("GET", "/x/../health")]
    [InlineData("POST", "/filter/streams/%2e%2e/rebuild")]
    public async Task A_dot_segment_anywhere_in_the_path_is_400_problem_json(string method, string target)
    {
        (int status, string response) = await RawHttp.SendAsync(_server.Address, method, RawHttp.Target(target));

        Assert.True(status == 400, $"{method} {target}: {response}");
        Assert.Contains("Content-Type: application/problem+json", response, StringComparison.OrdinalIgnoreCase);
        Assert.Contains("\"title\":\"Invalid path\"", response, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("streams/s?count=0")]
    [InlineData("streams/s?count=4097")]
    [InlineData("streams/s?from=-1")]
    [InlineData("streams/s?from=abc")]
    [InlineData("streams/s?from=1%00")]
    [InlineData("streams/s?count=2%00")]
    [InlineData("streams/s?from=1%00&count=2%00")]
    [InlineData("streams/s?from=%001")]
    [InlineData("streams/s?count=1%00%00%00")]
    [InlineData("streams/a%0Db")]
    [InlineData("filter/streams/a%0Db")]
    [InlineData("filter/streams/a%7F")]
    [InlineData("streams/%FF")]
    [InlineData("streams/")]
    [InlineData("filter/streams/%FF")]
    [InlineData("filter/streams/")]
    public async Task A_bad_read_or_lookup_is_400_problem_json(string uri)
    {
        ApiResponse answer = await _server.Api.SendAsync(HttpMethod.Get, uri);

        Assert.True(answer.Status == HttpStatusCode.BadRequest, $"{uri}: {answer}");
        AssertProblem(answer);
    }

    [Fact]
    public async Task A_name_of_exactly_1000_bytes_is_accepted_at_the_limit()
    {
        string name = new('é', 500);
        Assert.Equal(HttpStatusCode.Created, (await _server.Api.AppendAsync(name, "no-stream", OneEvent)).Status);
        Assert.Equal(HttpStatusCode.OK, (await _server.Api.ReadAsync(name)).Status);
    }

    private static void AssertProblem(ApiResponse answer)
    {
        Assert.Equal("application/problem+json", answer.MediaType);
        Assert.False(string.IsNullOrWhiteSpace(answer.Json.GetProperty("title").GetString()), answer.ToString());
        Assert.False(string.IsNullOrWhiteSpace(answer.Json.GetProperty("detail").GetString()), answer.ToString());
    }
}
