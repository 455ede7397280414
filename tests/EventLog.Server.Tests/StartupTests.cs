using System.Diagnostics;
using System.Net;
using System.Text.Json;
using EventFilter;
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

        (int exitCode, string output, _) = await ServerProcess.RunToExitAsync(directory.Path);

        // Regression: the refused server wrote its error into the live server's log file, which the live
        // server's later lines overwrote mid-line, and printed a stack trace before its one line.
        Assert.Equal(3, exitCode); // docs/operations.md, "Start-up failures"
        string line = Assert.Single(output.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith("EventLog.Server: error: The data directory ", line, StringComparison.Ordinal);
        Assert.EndsWith(
            "is in use by another server: '" + Path.Combine(directory.Path, "server.lock") + "' is locked. Stop the process that holds it, or give this server a data directory of its own (--data).",
            line,
            StringComparison.Ordinal);

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
    public async Task A_server_on_a_filter_directory_another_process_holds_exits_3_with_one_line_and_no_stack_trace()
    {
        using var directory = new TempDirectory();
        string filterDirectory = Path.Combine(directory.Path, "filter");
        using var holder = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = filterDirectory, SizeBytes = 1_000_000 }, new InMemoryStreamLog());
        holder.Open();

        (int exitCode, string output, string errors) = await ServerProcess.RunToExitAsync(directory.Path, ServerInformationLevel);

        // Regression: exit code 1, after the host's "Hosting failed to start" with 50 lines of stack trace.
        Assert.Equal(3, exitCode);
        Assert.Equal(
            $"EventLog.Server: error: The stream-existence filter's data directory '{filterDirectory}' is in use: '{Path.Combine(filterDirectory, "stream-existence.filter")}' is open for writing by another process (or another filter in this one). "
            + "Stop that process (another server on this directory, or 'eventfilter repair'), or give this one a directory of its own (StreamExistenceFilter:DataDirectory).",
            Assert.Single(errors.Split('\n', StringSplitOptions.RemoveEmptyEntries)));
        AssertNoStackTrace(output, directory.Path);
    }

    [Fact]
    public async Task A_server_on_a_log_another_process_holds_exits_3_with_one_line_and_no_stack_trace()
    {
        using var directory = new TempDirectory();
        await using EventLogEngine holder = await EventLogEngine.OpenAsync(new EventLogOptions { DataDirectory = directory.Path, StreamExistenceFilterSizeBytes = 0 });

        (int exitCode, string output, string errors) = await ServerProcess.RunToExitAsync(directory.Path, ServerInformationLevel);

        Assert.Equal(3, exitCode);
        string line = Assert.Single(errors.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"EventLog.Server: error: The data directory '{directory.Path}' is in use by another ", line, StringComparison.Ordinal);
        Assert.EndsWith(" Stop the process that holds it, or give this server a data directory of its own (--data).", line, StringComparison.Ordinal);
        AssertNoStackTrace(output, directory.Path, "could not be opened, so the server stops: ");
    }

    [RootFact]
    public async Task A_server_that_may_not_write_its_filter_files_exits_4_with_one_line_and_no_stack_trace()
    {
        using var directory = new TempDirectory();
        using (ServerProcess first = await ServerProcess.StartAsync(directory.Path))
        {
            Assert.Equal(HttpStatusCode.Created, (await first.Api.AppendAsync("s", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
            Assert.Equal(0, await first.InterruptAsync(Poll.Bound));
        }

        // The data directory is the service user's, but the filter's files are root's (as after a tool run as root):
        // the filter's directory check passes, and opening its files for writing fails. Root may write anything, so
        // the server runs as nobody.
        const int nobody = 65534;
        Run("chmod", "o+rx", directory.Path); // a temporary directory is its creator's alone
        Run("chown", "-R", $"{nobody}:{nobody}", directory.Path);
        Run("chown", ["0:0", .. Directory.GetFiles(Path.Combine(directory.Path, "filter"))]);
        foreach (string log in Directory.GetFiles(Path.Combine(directory.Path, "logs")))
        {
            File.Delete(log); // only the refused start's lines
        }

        (int exitCode, string output, string errors) = await ServerProcess.RunToExitAsync(directory.Path, ServerInformationLevel, userId: nobody);

        Assert.Equal(4, exitCode);
        string line = Assert.Single(errors.Split('\n', StringSplitOptions.RemoveEmptyEntries));
        Assert.StartsWith($"EventLog.Server: error: The stream-existence filter may not write its files in '{Path.Combine(directory.Path, "filter")}': Access to the path ", line, StringComparison.Ordinal);
        Assert.EndsWith("Give the user this process runs as read and write access to that directory and every file in it (a file made by another user, such as root, keeps its owner), or set StreamExistenceFilter:DataDirectory to another directory.", line, StringComparison.Ordinal);
        AssertNoStackTrace(output, directory.Path);
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
            Assert.Equal(0, await server.InterruptAsync(Poll.Bound));
            Assert.False(File.Exists(Path.Combine(directory.Path, "filter", "stream-existence.filter")), server.Output);
        }
    }

    // The default level of appsettings.json, which the tests' arguments lower to Warning.
    private static readonly string[] ServerInformationLevel = ["--Serilog:MinimumLevel:Default", "Information"];

    /// <summary>Neither the console nor the log file has a stack trace; the failure's one line is in both.</summary>
    private static void AssertNoStackTrace(string output, string dataDirectory, string failureLine = "could not be opened, so the host stops: ")
    {
        string logs = string.Join('\n', Directory.GetFiles(Path.Combine(dataDirectory, "logs")).Select(File.ReadAllText));
        Assert.Contains(failureLine, output, StringComparison.Ordinal);
        Assert.Contains(failureLine, logs, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", output, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", logs, StringComparison.Ordinal);
    }

    private static void Run(string command, params string[] arguments)
    {
        using var process = Process.Start(command, arguments);
        process.WaitForExit();
        Assert.Equal(0, process.ExitCode);
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
