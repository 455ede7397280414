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

    [Fact]
    public async Task StackExchange_Redis_negotiates_resp3_and_reads_its_maps_booleans_and_nulls()
    {
        await using ConnectionMultiplexer redis = await ConnectAsync(RedisProtocol.Resp3);
        IServer server = redis.GetServer(redis.GetEndPoints().Single());
        Assert.Equal(RedisProtocol.Resp3, server.Protocol);
        IDatabase db = redis.GetDatabase();

        Assert.Equal("OK", (string?)await db.ExecuteAsync("BF.RESERVE", "resp3", "0.01", "100", "NONSCALING"));
        RedisResult added = await db.ExecuteAsync("BF.ADD", "resp3", "alice");
        Assert.Equal(ResultType.Boolean, added.Resp3Type);
        Assert.True((bool)added);
        Assert.False((bool)await db.ExecuteAsync("BF.EXISTS", "resp3", "bob"));

        RedisResult info = await db.ExecuteAsync("BF.INFO", "resp3");
        Assert.Equal(ResultType.Map, info.Resp3Type);
        Dictionary<string, RedisResult> fields = info.ToDictionary();
        Assert.Equal(100, (int)fields["Capacity"]);
        Assert.Equal(1, (int)fields["Number of items inserted"]);
        Assert.True(fields["Expansion rate"].IsNull);
        Assert.Equal(ResultType.Null, fields["Expansion rate"].Resp3Type);
    }

    [Fact]
    public async Task StackExchange_Redis_pages_through_the_names_with_scan()
    {
        await using ConnectionMultiplexer redis = await ConnectAsync();
        IDatabase db = redis.GetDatabase();
        string[] names = [.. Enumerable.Range(0, 25).Select(i => $"paged:{i}")];
        foreach (string name in names)
        {
            await db.ExecuteAsync("BF.ADD", name, "x");
        }

        IServer server = redis.GetServer(redis.GetEndPoints().Single());
        var listed = new List<string>();
        await foreach (RedisKey key in server.KeysAsync(pattern: "paged:*", pageSize: 3))
        {
            listed.Add(key!);
        }

        Assert.Equal(names.Order(StringComparer.Ordinal), listed.Order(StringComparer.Ordinal));
    }

    private async Task<ConnectionMultiplexer> ConnectAsync(RedisProtocol protocol = RedisProtocol.Resp2)
    {
        var options = new ConfigurationOptions { AbortOnConnectFail = true, ConnectTimeout = 10_000, AllowAdmin = true, Protocol = protocol };
        options.EndPoints.Add(new System.Net.Sockets.UnixDomainSocketEndPoint(fixture.Daemon.SocketPath));
        return await ConnectionMultiplexer.ConnectAsync(options);
    }
}
