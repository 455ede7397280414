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
        Assert.Empty(Directory.GetFileSystemEntries(directory.Path)); // not even the lock file or the logs
    }

    [Theory]
    [InlineData("--EventLog:SegmentSizeBytes", "1000", "EventLog:SegmentSizeBytes must be between 65,536 and 1,073,741,824 bytes; got 1000.")]
    [InlineData("--EventLog:MemTableEntries", "12x", "EventLog:MemTableEntries is '12x': not a whole number (0 to 2,147,483,647).")]
    [InlineData("--EventLog:IndexMergeThreshold", "1", "EventLog:IndexMergeThreshold must be 0 (never merge) or between 2 and 64; got 1.")]
    public void A_bad_engine_setting_fails_at_build_with_the_key_and_creates_nothing(string key, string value, string message)
    {
        using var directory = new TempDirectory();
        string data = Path.Combine(directory.Path, "data");
        var error = Assert.Throws<OptionsValidationException>(() => ServerApp.Build(ServerArguments.For(data, key, value)));

        Assert.Equal(message, error.Message);
        Assert.False(Directory.Exists(data));
    }

    [Fact]
    public async Task A_second_server_on_the_same_data_directory_refuses_to_start_and_cuts_nothing()
    {
        using var directory = new TempDirectory();
        await using InProcessServer first = await InProcessServer.StartAsync(directory.Path);
        Assert.Equal(HttpStatusCode.Created, (await first.Api.AppendAsync("s", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        long end = first.LogEnd;

        var error = await Assert.ThrowsAsync<EventLog.Errors.DirectoryInUseException>(() => InProcessServer.StartAsync(directory.Path));

        Assert.Contains("in use by another server", error.Message, StringComparison.Ordinal);
        Assert.Equal(end, first.LogEnd);
        Assert.Equal(HttpStatusCode.Created, (await first.Api.AppendAsync("s", "0", EventsApi.OneEvent("E", "2"))).Status);
    }

    [Fact]
    public async Task A_refused_second_server_process_prints_one_line_and_writes_nothing_into_the_live_servers_log()
    {
        using var directory = new TempDirectory();
        using ServerProcess live = await ServerProcess.StartAsync(directory.Path);
        Assert.Equal(HttpStatusCode.Created, (await live.Api.AppendAsync("s", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
        string logs = Path.Combine(directory.Path, "logs");
        Dictionary<string, byte[]> before = Directory.GetFiles(logs).ToDictionary(f => f, File.ReadAllBytes);

        (int exitCode, string output) = await ServerProcess.RunToExitAsync(directory.Path);

        // Regression (issue 15): the refused server wrote its error into the live server's log file, which the live
        // server's later lines overwrote mid-line, and printed a stack trace before its one line.
        Assert.Equal(1, exitCode);
        string line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("EventLog.Server: error: The data directory ", line, StringComparison.Ordinal);
        Assert.EndsWith("is in use by another server: '" + Path.Combine(directory.Path, "server.lock") + "' is locked.", line, StringComparison.Ordinal);

        // The live server may have appended to its files, or rolled to a new one (at midnight); nothing else changed.
        foreach ((string file, byte[] content) in before)
        {
            byte[] after = await File.ReadAllBytesAsync(file);
            Assert.Equal(content, after.AsSpan(0, content.Length).ToArray());
        }

        Assert.DoesNotContain(Directory.GetFiles(logs), f => File.ReadAllText(f).Contains("in use by another server", StringComparison.Ordinal));
        Assert.Equal(HttpStatusCode.Created, (await live.Api.AppendAsync("s", "0", EventsApi.OneEvent("E", "2"))).Status);
    }

    [Fact]
    public async Task A_server_process_with_the_filter_disabled_serves_end_to_end_and_across_a_restart()
    {
        using var directory = new TempDirectory();
        foreach (string round in new[] { "first", "restarted" })
        {
            using ServerProcess server = await ServerProcess.StartAsync(directory.Path, "--stream-existence-filter-size", "0");
            string expected = round == "first" ? "no-stream" : "0";
            Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync("s", expected, EventsApi.OneEvent("E", "1"))).Status);
            Assert.Equal(round == "first" ? 1 : 2, (await server.Api.ReadAsync("s")).Json.GetProperty("events").GetArrayLength());
            Assert.True(await server.Api.MightExistAsync("never-written"));

            JsonElement filter = await server.Api.FilterAsync();
            Assert.Equal("Disabled", filter.GetProperty("state").GetString());
            Assert.False(filter.GetProperty("ready").GetBoolean());
            Assert.Equal(HttpStatusCode.OK, (await server.Api.SendAsync(HttpMethod.Get, "health")).Status);
            Assert.Equal(0, await server.InterruptAsync(HangGuard.Limit));
            Assert.False(File.Exists(Path.Combine(directory.Path, "filter", "stream-existence.filter")), server.Output);
        }
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
