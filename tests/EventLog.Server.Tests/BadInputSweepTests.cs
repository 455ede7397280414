using System.Collections.Concurrent;
using System.Net;

namespace EventLog.Server.Tests;

/// <summary>
/// Hundreds of random malformed requests (a few thousand with EVENTFILTER_RELIABILITY=full), several at a time:
/// every one is refused with a 4xx, nothing is written, and the server still serves afterwards.
/// </summary>
public sealed class BadInputSweepTests
{
    [Fact]
    public async Task Random_malformed_requests_all_get_4xx_write_nothing_and_leave_the_server_up()
    {
        using var directory = new TempDirectory();
        await using InProcessServer server = await InProcessServer.StartAsync(directory.Path);
        string three = "[" + string.Join(",", Enumerable.Repeat("{\"type\":\"E\",\"data\":0}", (int)MalformedRequests.ExistingLastEventNumber + 1)) + "]";
        Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync(MalformedRequests.ExistingStream, "no-stream", three)).Status);
        long end = server.LogEnd;

        int count = ReliabilityScale.Full ? 5_000 : 400;
        var generator = new MalformedRequests(new Random(5_394));
        var requests = new ConcurrentQueue<MalformedRequest>(Enumerable.Range(0, count).Select(_ => generator.Next()));
        var failures = new ConcurrentBag<string>();
        await Task.WhenAll(Enumerable.Range(0, 4).Select(_ => Task.Run(async () =>
        {
            while (requests.TryDequeue(out MalformedRequest? request))
            {
                (int status, string answer) = await SendAsync(server, request);
                if (status is < 400 or > 499)
                {
                    failures.Add($"{request} -> {answer}");
                }
            }
        })));

        Assert.True(failures.IsEmpty, string.Join("\n", failures.Take(10)));
        Assert.Equal(end, server.LogEnd);
        Assert.Equal(HttpStatusCode.OK, (await server.Api.SendAsync(HttpMethod.Get, "health")).Status);
        Assert.Equal(3, (await server.Api.ReadAsync(MalformedRequests.ExistingStream)).Json.GetProperty("events").GetArrayLength());
        Assert.Equal(HttpStatusCode.Created, (await server.Api.AppendAsync("after-the-sweep", "no-stream", EventsApi.OneEvent("E", "1"))).Status);
    }

    private static async Task<(int Status, string Answer)> SendAsync(InProcessServer server, MalformedRequest request)
    {
        if (request.RawTarget is { } target)
        {
            (int status, string response) = await RawHttp.SendAsync(server.Address, "POST", target, request.Body);
            return (status, response);
        }

        ApiResponse answer = await server.Api.SendAsync(HttpMethod.Post, request.Uri, request.Body, request.ExpectContinue);
        return ((int)answer.Status, answer.ToString());
    }
}
