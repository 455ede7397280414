using System.Net;
using System.Text.Json;
using EventFilter;

namespace EventLog.Server.Tests;

/// <summary>
/// <c>POST /filter/rebuild</c> (docs/server.md): the filter is rebuilt online at its size while appends go on, with
/// no stream ever answered "definitely not"; when it cannot start, a 409 problem says why and nothing changes.
/// </summary>
public sealed class FilterRebuildTests : IDisposable
{
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [Fact]
    public async Task A_rebuild_swaps_in_a_fresh_file_while_appends_continue_and_loses_no_stream()
    {
        await using InProcessServer server = await InProcessServer.StartAsync(_directory.Path);
        await server.Api.WaitForFilterReadyAsync();
        int streams = 0;
        for (; streams < 200; streams++)
        {
            await AppendAsync(server, streams);
        }

        string filterPath = Path.Combine(_directory.Path, "filter", StreamExistenceFilterOptions.DefaultFileName);
        string before = FilterHeaderBytes.Read(filterPath);
        ApiResponse accepted = await server.Api.SendAsync(HttpMethod.Post, "filter/rebuild");
        Assert.Equal(HttpStatusCode.Accepted, accepted.Status);
        Assert.True(accepted.Json.GetProperty("started").GetBoolean());

        // Appends go on until the fresh file is the one on disk (its file id is new), and a few after.
        await Poll.UntilAsync(
            async () =>
            {
                if (FilterHeaderBytes.Read(filterPath) != before)
                {
                    return true;
                }

                await AppendAsync(server, streams++);
                return false;
            },
            "the rebuild to swap in");

        for (int i = 0; i < 20; i++)
        {
            await AppendAsync(server, streams++);
        }

        JsonElement filter = await server.Api.FilterAsync();
        Assert.Equal(JsonValueKind.Null, filter.GetProperty("rebuild").ValueKind);
        Assert.True(filter.GetProperty("ready").GetBoolean());
        for (int i = 0; i < streams; i++)
        {
            Assert.True(await server.Api.MightExistAsync(Name(i)), $"{Name(i)} answered 'definitely not' after the rebuild");
        }
    }

    // Every order of resize and rebuild in one process: a resize after a rebuild (a restart at a new size, each cycle
    // after the first), a rebuild after a resize, a rebuild after a rebuild. A second rebuild used to fail, leaving
    // /health Degraded ("background work failed"): the first one's ….resize.lock outlived its swap.
    [Fact]
    public async Task Ten_cycles_of_a_resize_and_two_rebuilds_in_one_process_each_swap_and_lose_no_stream()
    {
        string filterPath = Path.Combine(_directory.Path, "filter", StreamExistenceFilterOptions.DefaultFileName);
        string[] sizes = ["64KB", "128KB"];
        int streams = 0;
        for (int cycle = 0; cycle < 10; cycle++)
        {
            string before = File.Exists(filterPath) ? FilterHeaderBytes.Read(filterPath) : "";
            await using InProcessServer server = await InProcessServer.StartAsync(_directory.Path, "--stream-existence-filter-size", sizes[cycle % 2]);
            streams = await AppendUntilSwappedAsync(server, filterPath, before, streams);
            for (int rebuild = 0; rebuild < 2; rebuild++)
            {
                before = FilterHeaderBytes.Read(filterPath);
                ApiResponse accepted = await server.Api.SendAsync(HttpMethod.Post, "filter/rebuild");
                Assert.True(accepted.Status == HttpStatusCode.Accepted, $"cycle {cycle}, rebuild {rebuild}: {accepted}");
                streams = await AppendUntilSwappedAsync(server, filterPath, before, streams);
            }

            ApiResponse health = await server.Api.SendAsync(HttpMethod.Get, "health");
            Assert.True(health.Status == HttpStatusCode.OK && health.Json.GetProperty("status").GetString() == "Healthy", $"cycle {cycle}: {health}");
            for (int i = 0; i < streams; i++)
            {
                Assert.True(await server.Api.MightExistAsync(Name(i)), $"cycle {cycle}: {Name(i)} answered 'definitely not'");
            }
        }
    }

    [Fact]
    public async Task A_disabled_filter_answers_409_with_the_reason()
    {
        await using InProcessServer server = await InProcessServer.StartAsync(_directory.Path, "--stream-existence-filter-size", "0");
        ApiResponse refused = await server.Api.SendAsync(HttpMethod.Post, "filter/rebuild");

        Assert.Equal(HttpStatusCode.Conflict, refused.Status);
        Assert.Equal("application/problem+json", refused.MediaType);
        Assert.Equal("Rebuild not started", refused.Json.GetProperty("title").GetString());
        Assert.Equal("No rebuild was started: the filter is disabled (size 0).", refused.Json.GetProperty("detail").GetString());
    }

    private static string Name(int i) => $"rebuild-{i}";

    // Appends until a fresh file is the one on disk (its header, file id included, is new) and no resize or rebuild is
    // under way any more, then a few more, which only the fresh file receives.
    private static async Task<int> AppendUntilSwappedAsync(InProcessServer server, string filterPath, string before, int streams)
    {
        JsonElement check = default;
        await Poll.UntilAsync(
            async () =>
            {
                if (File.Exists(filterPath) && FilterHeaderBytes.Read(filterPath) != before && await IdleAsync(server))
                {
                    return true;
                }

                check = (await server.Api.SendAsync(HttpMethod.Get, "health")).Json.GetProperty("checks").GetProperty("stream-existence-filter");
                Assert.False(check.GetProperty("description").GetString()!.StartsWith("background work failed", StringComparison.Ordinal), check.ToString());
                await AppendAsync(server, streams++);
                return false;
            },
            () => $"a swap: {check}");

        for (int i = 0; i < 5; i++)
        {
            await AppendAsync(server, streams++);
        }

        return streams;
    }

    private static async Task<bool> IdleAsync(InProcessServer server)
    {
        JsonElement filter = await server.Api.FilterAsync();
        return filter.GetProperty("ready").GetBoolean()
            && filter.GetProperty("resize").ValueKind == JsonValueKind.Null
            && filter.GetProperty("rebuild").ValueKind == JsonValueKind.Null;
    }

    private static async Task AppendAsync(InProcessServer server, int i) =>
        Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync(Name(i), "no-stream", EventsApi.OneEvent("Made", "{}"))).Status);
}
