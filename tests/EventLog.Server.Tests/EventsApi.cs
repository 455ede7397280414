using System.Net;
using System.Net.Http.Headers;
using System.Text;
using System.Text.Json;

namespace EventLog.Server.Tests;

/// <summary>The server's HTTP API as the tests call it: plain HttpClient requests, answers kept as text and status.</summary>
public sealed class EventsApi(Uri address) : IDisposable
{
    private readonly HttpClient _http = new() { BaseAddress = address, Timeout = Poll.Bound };

    public Uri Address => address;

    /// <summary>The path of a stream: every byte but the unreserved ones percent-encoded, '/' included.</summary>
    public static string StreamPath(string stream) => "streams/" + Uri.EscapeDataString(stream);

    /// <summary>A body of one event: <c>[{"type": type, "data": data}]</c>, data given as JSON text.</summary>
    public static string OneEvent(string type, string dataJson) => $"[{{\"type\":{JsonSerializer.Serialize(type)},\"data\":{dataJson}}}]";

    public Task<ApiResponse> AppendAsync(string stream, string? expectedVersion, string body) =>
        SendAsync(HttpMethod.Post, StreamPath(stream) + (expectedVersion is null ? "" : "?expectedVersion=" + expectedVersion), Encoding.UTF8.GetBytes(body));

    public Task<ApiResponse> ReadAsync(string stream, long from = 0, int count = 100) =>
        SendAsync(HttpMethod.Get, $"{StreamPath(stream)}?from={from}&count={count}");

    public async Task<bool> MightExistAsync(string stream)
    {
        ApiResponse answer = await SendAsync(HttpMethod.Get, "filter/" + StreamPath(stream));
        Assert.Equal(HttpStatusCode.OK, answer.Status);
        bool mightExist = answer.Json.GetProperty("mightExist").GetBoolean();

        // One spelling per answer: the eventfilter.answer metric tag's, as in the CLI's JSON.
        Assert.Equal(mightExist ? "maybe" : "definitely-not", answer.Json.GetProperty("answer").GetString());
        return mightExist;
    }

    public async Task<JsonElement> FilterAsync()
    {
        ApiResponse answer = await SendAsync(HttpMethod.Get, "filter");
        Assert.Equal(HttpStatusCode.OK, answer.Status);
        return answer.Json;
    }

    /// <summary>Polls <c>GET /filter</c> until it reports ready.</summary>
    public async Task<JsonElement> WaitForFilterReadyAsync()
    {
        JsonElement filter = default;
        await Poll.UntilAsync(
            async () => (filter = await FilterAsync()).GetProperty("ready").GetBoolean(),
            () => $"the filter to be ready: {filter}");
        return filter;
    }

    public async Task<ApiResponse> SendAsync(HttpMethod method, string relativeUri, byte[]? body = null, bool expectContinue = false)
    {
        using var request = new HttpRequestMessage(method, new Uri(relativeUri, UriKind.Relative));
        if (body is not null)
        {
            request.Content = new ByteArrayContent(body);
            request.Content.Headers.ContentType = new MediaTypeHeaderValue("application/json");
        }

        // For bodies over the limit: the server answers 413 from the headers, before the body is sent.
        request.Headers.ExpectContinue = expectContinue;
        using HttpResponseMessage response = await _http.SendAsync(request);
        return new ApiResponse(response.StatusCode, response.Content.Headers.ContentType?.MediaType, await response.Content.ReadAsStringAsync());
    }

    public void Dispose() => _http.Dispose();
}

/// <summary>One answer: status, media type and body.</summary>
public sealed record ApiResponse(HttpStatusCode Status, string? MediaType, string Body)
{
    public JsonElement Json => JsonDocument.Parse(Body).RootElement.Clone();

    public long Number(string property) => Json.GetProperty(property).GetInt64();

    public override string ToString() => $"{(int)Status} {MediaType}: {Body}";
}
