using System.Net;
using System.Text.Json;
using System.Reflection;
using EventFilter;
using EventLog.Server.Hosting;

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
        await server.Api.WaitForFilterReadyAsync(TimeSpan.FromMinutes(1));
        int streams = 0;
        for (; streams < 200; streams++)
        {
            await AppendAsync(server, streams);
        }

        string filterPath = Path.Combine(_directory.Path, "filter", StreamExistenceFilterOptions.DefaultFileName);
        string before = Header(filterPath);
        ApiResponse accepted = await server.Api.SendAsync(HttpMethod.Post, "filter/rebuild");
        Assert.Equal(HttpStatusCode.Accepted, accepted.Status);
        Assert.True(accepted.Json.GetProperty("started").GetBoolean());

        // Appends go on until the fresh file is the one on disk (its file id is new), and a few after.
        var clock = System.Diagnostics.Stopwatch.StartNew();
        while (Header(filterPath) == before)
        {
            Assert.True(clock.Elapsed < TimeSpan.FromMinutes(2), "the rebuild never swapped in");
            await AppendAsync(server, streams++);
        }

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

    private static async Task AppendAsync(InProcessServer server, int i) =>
        Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync(Name(i), "no-stream", EventsApi.OneEvent("Made", "{}"))).Status);

    // The header's bytes, file id included (docs/file-format.md): a fresh file has new ones. Read directly rather than
    // through FilterFile.OpenReadOnly, which also replays the journal that the live filter may be folding away.
    private static string Header(string filterPath)
    {
        using var file = new FileStream(filterPath, FileMode.Open, FileAccess.Read, FileShare.ReadWrite | FileShare.Delete);
        byte[] header = new byte[64];
        file.ReadExactly(header);
        return Convert.ToHexString(header);
    }
}
