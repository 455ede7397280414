using System.Net;
using System.Text;

namespace EventLog.Server.Tests;

/// <summary>
/// What the server accepts beyond the canonical spelling, pinned so that it stays as docs/server.md says
/// ("What is accepted"): case-insensitive expectedVersion values, query parameter names and event property names,
/// and a trailing slash after the stream name.
/// </summary>
public sealed class AcceptedFormsTests : IAsyncLifetime
{
    private static readonly byte[] OneEvent = Encoding.UTF8.GetBytes(EventsApi.OneEvent("E", "1"));

    private readonly TempDirectory _directory = new();
    private InProcessServer _server = null!;

    public async Task InitializeAsync() => _server = await InProcessServer.StartAsync(_directory.Path);

    public async Task DisposeAsync()
    {
        await _server.DisposeAsync();
        _directory.Dispose();
    }

    [Theory]
    [InlineData("expectedVersion=NO-STREAM", "expectedVersion=Exists")]
    [InlineData("ExpectedVersion=No-Stream", "EXPECTEDVERSION=0")]
    [InlineData("expectedversion=no-stream", "expectedVersion=ANY")]
    public async Task ExpectedVersion_and_its_name_are_case_insensitive(string first, string second)
    {
        Assert.Equal(HttpStatusCode.Created, (await _server.Api.SendAsync(HttpMethod.Post, $"streams/s?{first}", OneEvent)).Status);
        Assert.Equal(HttpStatusCode.Created, (await _server.Api.SendAsync(HttpMethod.Post, $"streams/s?{second}", OneEvent)).Status);
        Assert.Equal(HttpStatusCode.Conflict, (await _server.Api.SendAsync(HttpMethod.Post, $"streams/s?{first}", OneEvent)).Status);
    }

    [Fact]
    public async Task Event_property_names_are_case_insensitive()
    {
        byte[] body = Encoding.UTF8.GetBytes("""[{"TYPE":"E","Data":{"a":1},"MetaData":{"b":2}}]""");
        Assert.Equal(HttpStatusCode.Created, (await _server.Api.SendAsync(HttpMethod.Post, "streams/s", body)).Status);

        ApiResponse read = await _server.Api.ReadAsync("s");
        System.Text.Json.JsonElement stored = read.Json.GetProperty("events")[0];
        Assert.Equal("E", stored.GetProperty("type").GetString());
        Assert.Equal(1, stored.GetProperty("data").GetProperty("a").GetInt32());
        Assert.Equal(2, stored.GetProperty("metadata").GetProperty("b").GetInt32());
    }

    [Fact]
    public async Task A_trailing_slash_names_the_same_stream()
    {
        Assert.Equal(HttpStatusCode.Created, (await _server.Api.SendAsync(HttpMethod.Post, "streams/x/?expectedVersion=no-stream", OneEvent)).Status);
        Assert.Equal(HttpStatusCode.OK, (await _server.Api.SendAsync(HttpMethod.Get, "streams/x/")).Status);
        Assert.Equal(HttpStatusCode.Conflict, (await _server.Api.SendAsync(HttpMethod.Post, "streams/x?expectedVersion=no-stream", OneEvent)).Status);
    }
}
