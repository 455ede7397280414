namespace EventFilter.Daemon.Tests;

/// <summary>BF.INSERT's options, and DEL, EXISTS and KEYS over binary-safe keys.</summary>
public sealed class InsertAndKeyTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public void Insert_creates_with_its_parameters_and_adds_items()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.INSERT", "ins", "CAPACITY", "50", "ERROR", "0.001", "EXPANSION", "4", "ITEMS", "a", "b"));
        Assert.Equal(new object?[] { 50L }, client.Call("BF.INFO", "ins", "CAPACITY"));
        Assert.Equal(new object?[] { 4L }, client.Call("BF.INFO", "ins", "EXPANSION"));
        Assert.Equal(new object?[] { 0L, 1L }, client.Call("BF.INSERT", "ins", "NOCREATE", "ITEMS", "a", "c"));
    }

    [Fact]
    public void Type_names_a_filter_as_RedisBloom_does_and_a_missing_key_none()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("OK", client.Call("BF.RESERVE", "typed", "0.01", "100"));
        Assert.Equal("MBbloom--", client.Call("TYPE", "typed"));
        Assert.Equal("none", client.Call("TYPE", "untyped"));
        Assert.Equal(new RespError("ERR wrong number of arguments for 'type' command"), client.Call("TYPE"));
    }

    [Fact]
    public void Insert_nocreate_on_a_missing_key_is_not_found()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal(new RespError("ERR not found"), client.Call("BF.INSERT", "none", "NOCREATE", "ITEMS", "a"));
        Assert.Equal(new RespError("ERR NOCREATE cannot be used with CAPACITY or ERROR"), client.Call("BF.INSERT", "none", "NOCREATE", "CAPACITY", "5", "ITEMS", "a"));
        Assert.Equal(new RespError("ERR bad capacity"), client.Call("BF.INSERT", "none", "CAPACITY", "x", "ITEMS", "a"));
        Assert.Equal(new RespError("ERR syntax error"), client.Call("BF.INSERT", "none", "BOGUS", "ITEMS", "a"));
        Assert.Equal(0L, client.Call("EXISTS", "none"));
    }

    [Fact]
    public void Insert_nonscaling_stops_at_capacity()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal(new object?[] { 1L, new RespError("ERR non scaling filter is full") }, client.Call("BF.INSERT", "ins-fixed", "CAPACITY", "1", "NONSCALING", "ITEMS", "a", "b", "c"));
    }

    [Fact]
    public void Binary_keys_and_items_are_distinct_byte_strings()
    {
        using RespClient client = fixture.Connect();
        byte[][] keys = [[0], [0, 0], "../../etc/passwd"u8.ToArray(), "A"u8.ToArray(), "a"u8.ToArray(), [0xff, 0xfe, (byte)'/'], [], "bin-\r\n"u8.ToArray()];
        foreach (byte[] key in keys)
        {
            Assert.Equal(1L, client.Call("BF.ADD", key, key));
        }

        foreach (byte[] key in keys)
        {
            Assert.Equal(1L, client.Call("BF.CARD", key));
            Assert.Equal(1L, client.Call("BF.EXISTS", key, key));
        }

        var listed = ((object?[])client.Call("KEYS", "*")!).Cast<byte[]>().ToList();
        Assert.All(keys, key => Assert.Contains(listed, k => k.AsSpan().SequenceEqual(key)));
        Assert.Equal((long)keys.Length, client.Call(["DEL", .. keys]));
        Assert.Equal(0L, client.Call(["EXISTS", .. keys]));
    }

    [Fact]
    public void Del_and_exists_count_keys_and_del_forgets_the_items()
    {
        using RespClient client = fixture.Connect();
        client.Call("BF.ADD", "d1", "x");
        client.Call("BF.ADD", "d2", "x");
        Assert.Equal(3L, client.Call("EXISTS", "d1", "d2", "d1", "d3"));
        Assert.Equal(2L, client.Call("DEL", "d1", "d2", "d3"));
        Assert.Equal(0L, client.Call("BF.EXISTS", "d1", "x"));
        Assert.Equal(1L, client.Call("BF.ADD", "d1", "x"));
    }

    [Fact]
    public void Keys_matches_redis_glob_patterns()
    {
        using RespClient client = fixture.Connect();
        foreach (string key in new[] { "glob:user:1", "glob:user:22", "glob:order:1", "glob:User:3" })
        {
            client.Call("BF.ADD", key, "x");
        }

        string[] Keys(string pattern) => [.. ((object?[])client.Call("KEYS", pattern)!).Select(k => System.Text.Encoding.UTF8.GetString((byte[])k!)).Order(StringComparer.Ordinal)];
        Assert.Equal(["glob:order:1", "glob:user:1", "glob:user:22"], Keys("glob:[a-z]*:*"));
        Assert.Equal(["glob:User:3", "glob:user:1"], Keys("glob:?ser:?"));
        Assert.Equal(["glob:User:3"], Keys("glob:[^u]ser:*"));
        Assert.Empty(Keys("nomatch*"));
        Assert.Equal(["glob:order:1"], Keys("glob:order:\\1"));
    }
}
