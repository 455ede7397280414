using System.Net;
using System.Text.Json;
using Microsoft.Extensions.Options;

namespace EventLog.Server.Tests;

/// <summary>Starting up: a bad setting, a second server on one data directory, and the filter turned off.</summary>
public sealed class StartupTests
{
    [Fact]
    public void A_bad_filter_size_fails_at_build_with_the_key_and_opens_no_log_or_filter()
    {
        using var directory = new TempDirectory();
        var error = Assert.Throws<OptionsValidationException>(() => ServerApp.Build(ServerArguments.For(directory.Path, "--stream-existence-filter-size", "12XB")));

        Assert.StartsWith("stream-existence-filter-size is '12XB'", error.Message, StringComparison.Ordinal);
        Assert.False(Directory.Exists(Path.Combine(directory.Path, "log")));
        Assert.False(Directory.Exists(Path.Combine(directory.Path, "filter")));
    }

    [Fact]
    public async Task A_second_server_on_the_same_data_directory_refuses_to_start_and_cuts_nothing()
    {
        using var directory = new TempDirectory();
        await using InProcessServer first = await InProcessServer.StartAsync(directory.Path);
        Assert.Equal(HttpStatusCode.Created, (await first.Api.AppendAsync("s", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        long end = first.LogEnd;

        var error = await Assert.ThrowsAsync<IOException>(() => InProcessServer.StartAsync(directory.Path));

        Assert.Contains("in use by another server", error.Message, StringComparison.Ordinal);
        Assert.Equal(end, first.LogEnd);
        Assert.Equal(HttpStatusCode.Created, (await first.Api.AppendAsync("s", "0", EventsApi.OneEvent("E", "2"))).Status);
    }

    [Fact]
    public async Task With_the_filter_disabled_appends_reads_and_conflicts_still_work_and_every_lookup_is_maybe()
    {
        using var directory = new TempDirectory();
        await using InProcessServer server = await InProcessServer.StartAsync(directory.Path, "--stream-existence-filter-size", "0");

        Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync("s", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        Assert.Equal(HttpStatusCode.Conflict, (await server.Api.AppendAsync("s", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        Assert.Equal(HttpStatusCode.OK, (await server.Api.ReadAsync("s")).Status);
        Assert.True(await server.Api.MightExistAsync("never-written"));

        JsonElement filter = await server.Api.FilterAsync();
        Assert.Equal("Disabled", filter.GetProperty("state").GetString());
        Assert.Equal(JsonValueKind.Null, filter.GetProperty("checkpointPosition").ValueKind);
        Assert.Equal(HttpStatusCode.OK, (await server.Api.SendAsync(HttpMethod.Get, "health")).Status);
    }
}
