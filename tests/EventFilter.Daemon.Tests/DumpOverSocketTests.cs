using StackExchange.Redis;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// RedisBloom's dump and restore loop as an application would run it with StackExchange.Redis: BF.SCANDUMP on one
/// eventfilterd, BF.LOADCHUNK of the same (iterator, data) pairs on another, over their Unix sockets.
/// </summary>
public sealed class DumpOverSocketTests
{
    [Fact]
    public async Task A_filter_dumped_on_one_daemon_and_loaded_on_another_answers_maybe_for_every_item()
    {
        using var firstDirectory = new TempDirectory();
        using var secondDirectory = new TempDirectory();
        using DaemonProcess first = DaemonProcess.Start(firstDirectory.Path);
        using DaemonProcess second = DaemonProcess.Start(secondDirectory.Path, "--log-sync", "always");
        await using ConnectionMultiplexer from = await ConnectAsync(first);
        await using ConnectionMultiplexer to = await ConnectAsync(second);
        IDatabase source = from.GetDatabase();
        IDatabase target = to.GetDatabase();
        const int Items = 150_000;
        await source.ExecuteAsync("BF.RESERVE", "events", "0.001", "50000");
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "events", 0, Items))
        {
            await source.ExecuteAsync("BF.MADD", madd[1..]);
        }

        var chunks = new List<(long Iterator, byte[] Data)>();
        for (long iterator = 0; ;)
        {
            var reply = (RedisResult[])(await source.ExecuteAsync("BF.SCANDUMP", "events", iterator))!;
            iterator = (long)reply[0];
            if (iterator == 0)
            {
                break;
            }

            chunks.Add((iterator, (byte[])reply[1]!));
        }

        foreach ((long iterator, byte[] data) in chunks)
        {
            Assert.Equal("OK", (string?)await target.ExecuteAsync("BF.LOADCHUNK", "events", iterator, data));
        }

        foreach (object[] mexists in DumpLoop.Batches("BF.MEXISTS", "events", 0, Items, batch: 10_000))
        {
            Assert.All((int[])(await target.ExecuteAsync("BF.MEXISTS", mexists[1..]))!, answer => Assert.Equal(1, answer));
        }

        Assert.Equal((long)await source.ExecuteAsync("BF.CARD", "events"), (long)await target.ExecuteAsync("BF.CARD", "events"));
        Assert.Equal(
            ((RedisResult[])(await source.ExecuteAsync("BF.INFO", "events"))!).Select(r => r.ToString()),
            ((RedisResult[])(await target.ExecuteAsync("BF.INFO", "events"))!).Select(r => r.ToString()));
    }

    private static async Task<ConnectionMultiplexer> ConnectAsync(DaemonProcess daemon)
    {
        var options = new ConfigurationOptions { AbortOnConnectFail = true, ConnectTimeout = 10_000, SyncTimeout = 30_000, AsyncTimeout = 30_000 };
        options.EndPoints.Add(new System.Net.Sockets.UnixDomainSocketEndPoint(daemon.SocketPath));
        return await ConnectionMultiplexer.ConnectAsync(options);
    }
}
