using System.Net;
using System.Text.Json;

namespace EventLog.Server.Tests;

/// <summary>Ctrl+C (SIGINT): requests finish, appends stop, the filter takes its final checkpoint at the log's end, exit 0.</summary>
public sealed class ShutdownTests
{
    [Fact]
    public async Task Ctrl_C_stops_cleanly_with_a_final_checkpoint_at_the_end_of_the_log()
    {
        using var directory = new TempDirectory();
        long end;
        using (ServerProcess server = await ServerProcess.StartAsync(directory.Path))
        {
            for (int i = 0; i < 50; i++)
            {
                Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync($"s-{i}", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
            }

            end = (await server.Api.FilterAsync()).GetProperty("logEndPosition").GetInt64();
            Assert.Equal(0, await server.InterruptAsync(HangGuard.Limit));
            Assert.Contains($"final checkpoint at {end}", server.Output, StringComparison.Ordinal);
            Assert.Contains($"Event log closed at byte {end}", server.Output, StringComparison.Ordinal);
        }

        // Reopened: the checkpoint covers the whole log, so the filter is ready with nothing to catch up.
        await using InProcessServer reopened = await InProcessServer.StartAsync(directory.Path);
        JsonElement filter = await reopened.Api.WaitForFilterReadyAsync(HangGuard.Limit);
        Assert.Equal(end, filter.GetProperty("checkpointPosition").GetInt64());
        Assert.Equal(end, filter.GetProperty("logEndPosition").GetInt64());
        Assert.True(await reopened.Api.MightExistAsync("s-49"));
    }
}
