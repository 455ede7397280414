using StackExchange.Redis;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A real Redis client, StackExchange.Redis, over the Unix socket: it connects (its handshake's CLIENT, CONFIG and
/// CLUSTER probes get errors it tolerates) and drives every command. The raw client covers the protocol's edges.
/// </summary>
public sealed class StackExchangeRedisTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public async Task Every_command_works_through_StackExchange_Redis()
    {
        await using ConnectionMultiplexer redis = await ConnectAsync();
        IDatabase db = redis.GetDatabase();
        Assert.True((await db.PingAsync()) < TimeSpan.FromSeconds(10));
        Assert.Equal("hi", (string?)await db.ExecuteAsync("ECHO", "hi"));
        Assert.Equal("OK", (string?)await db.ExecuteAsync("BF.RESERVE", "se", "0.001", "100"));
        Assert.Equal(1, (int)await db.ExecuteAsync("BF.ADD", "se", "alice"));
        Assert.Equal(0, (int)await db.ExecuteAsync("BF.ADD", "se", "alice"));
        Assert.Equal(1, (int)await db.ExecuteAsync("BF.EXISTS", "se", "alice"));
        Assert.Equal(new[] { 1, 0 }, (int[])(await db.ExecuteAsync("BF.MADD", "se", "bob", "alice"))!);
        Assert.Equal(new[] { 1, 1, 0 }, (int[])(await db.ExecuteAsync("BF.MEXISTS", "se", "alice", "bob", "carol"))!);
        Assert.Equal(2, (int)await db.ExecuteAsync("BF.CARD", "se"));
        Assert.Equal(new[] { 1 }, (int[])(await db.ExecuteAsync("BF.INSERT", "se2", "CAPACITY", "10", "ITEMS", "x"))!);
        var info = (RedisResult[])(await db.ExecuteAsync("BF.INFO", "se"))!;
        Assert.Equal("Capacity", (string?)info[0]);
        Assert.Equal(100, (int)info[1]);
        Assert.Equal(["se", "se2"], ((RedisResult[])(await db.ExecuteAsync("KEYS", "se*"))!).Select(k => (string?)k).Order(StringComparer.Ordinal));
        Assert.True(await db.KeyExistsAsync("se"));
        Assert.True(await db.KeyDeleteAsync("se"));
        Assert.False(await db.KeyExistsAsync("se"));
        var error = await Assert.ThrowsAsync<RedisServerException>(() => db.ExecuteAsync("BF.ADD", "se"));
        Assert.Equal("ERR wrong number of arguments for 'bf.add' command", error.Message);
    }

    [Fact]
    public async Task Concurrent_calls_pipeline_on_one_connection_with_binary_keys()
    {
        await using ConnectionMultiplexer redis = await ConnectAsync();
        IDatabase db = redis.GetDatabase();
        byte[] key = [0, 255, (byte)'/', (byte)'.', (byte)'.'];
        Task<RedisResult>[] adds = [.. Enumerable.Range(0, 1000).Select(i => db.ExecuteAsync("BF.ADD", (RedisKey)key, $"item-{i}"))];
        RedisResult[] answers = await Task.WhenAll(adds);
        Assert.True(answers.Count(a => (int)a == 1) >= 990, "nearly all new");
        Task<RedisResult>[] checks = [.. Enumerable.Range(0, 1000).Select(i => db.ExecuteAsync("BF.EXISTS", (RedisKey)key, $"item-{i}"))];
        Assert.All(await Task.WhenAll(checks), a => Assert.Equal(1, (int)a));
    }

    private async Task<ConnectionMultiplexer> ConnectAsync()
    {
        var options = new ConfigurationOptions { AbortOnConnectFail = true, ConnectTimeout = 10_000, AllowAdmin = true };
        options.EndPoints.Add(new System.Net.Sockets.UnixDomainSocketEndPoint(fixture.Daemon.SocketPath));
        return await ConnectionMultiplexer.ConnectAsync(options);
    }
}
