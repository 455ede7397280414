using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Text.Json;

namespace EventLog.Server.Tests;

/// <summary>
/// Ctrl+C (SIGINT) and SIGTERM: requests finish, or are cut at the host's shutdown timeout; appends stop, the filter
/// takes its final checkpoint at the log's end, exit 0.
/// </summary>
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
            Assert.Equal(0, await server.InterruptAsync(Poll.Bound));
            Assert.Contains($"final checkpoint at {end}", server.Output, StringComparison.Ordinal);
            Assert.Contains($"Event log closed at byte {end}", server.Output, StringComparison.Ordinal);
        }

        // Reopened: the checkpoint covers the whole log, so the filter is ready with nothing to catch up.
        await using InProcessServer reopened = await InProcessServer.StartAsync(directory.Path);
        JsonElement filter = await reopened.Api.WaitForFilterReadyAsync();
        Assert.Equal(end, filter.GetProperty("checkpointPosition").GetInt64());
        Assert.Equal(end, filter.GetProperty("logEndPosition").GetInt64());
        Assert.True(await reopened.Api.MightExistAsync("s-49"));
    }

    [Fact]
    public async Task SIGTERM_while_a_request_outlasts_the_shutdown_timeout_exits_0_and_the_next_start_finds_every_stream()
    {
        using var directory = new TempDirectory();
        long end;
        using (ServerProcess server = await ServerProcess.StartAsync(
            directory.Path,
            "--shutdownTimeoutSeconds", "1",
            "--Serilog:MinimumLevel:Override:Microsoft.AspNetCore.Hosting.Diagnostics", "Information")) // "Request starting"
        {
            for (int i = 0; i < 50; i++)
            {
                Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync($"s-{i}", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
            }

            end = (await server.Api.FilterAsync()).GetProperty("logEndPosition").GetInt64();

            // A slow client: the headers and one byte of a 100-byte body. The server has begun the request, and the
            // request waits for the rest of its body, which never comes, so shutting down waits for it until the timeout.
            using var slowClient = new TcpClient();
            await slowClient.ConnectAsync(server.Api.Address.Host, server.Api.Address.Port);
            await slowClient.GetStream().WriteAsync(Encoding.ASCII.GetBytes(
                $"POST /streams/slow-upload HTTP/1.1\r\nHost: {server.Api.Address.Authority}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n["));
            await server.WaitForLineAsync("Request starting HTTP/1.1 POST http://" + server.Api.Address.Authority + "/streams/slow-upload");

            // Regression: the filter's StopAsync got the expired token and threw TaskCanceledException out
            // of RunAsync: exit code 1 here (134 in the hosting guide's worker), and no final checkpoint.
            Assert.Equal(0, await server.TerminateAsync(Poll.Bound));
            Assert.Contains(server.Output.Split('\n'), line => line.Contains("/streams/slow-upload - 499 ", StringComparison.Ordinal)); // cut at the timeout
            Assert.Contains($"final checkpoint at {end}", server.Output, StringComparison.Ordinal);
            Assert.True(!server.Output.Contains("   at ", StringComparison.Ordinal), server.Output);
        }

        await using InProcessServer reopened = await InProcessServer.StartAsync(directory.Path);
        await reopened.Api.WaitForFilterReadyAsync();
        for (int i = 0; i < 50; i++)
        {
            Assert.True(await reopened.Api.MightExistAsync($"s-{i}"));
            Assert.Equal(HttpStatusCode.OK, (await reopened.Api.ReadAsync($"s-{i}")).Status);
        }

        Assert.Equal(HttpStatusCode.NotFound, (await reopened.Api.ReadAsync("slow-upload")).Status);
    }
}
