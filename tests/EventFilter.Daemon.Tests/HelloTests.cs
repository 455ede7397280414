namespace EventFilter.Daemon.Tests;

/// <summary>
/// HELLO switches a connection between RESP2 and RESP3 and describes the server as Redis does; in RESP3, BF.INFO is a
/// map, adds and lookups answer booleans, a missing value is "_", and INFO is verbatim text. RESP2 stays the default.
/// </summary>
public sealed class HelloTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public void Hello_3_answers_a_map_and_switches_the_connection_to_resp3()
    {
        using RespClient client = fixture.Connect();
        var hello = Assert.IsType<RespMap>(client.Call("HELLO", "3"));

        Assert.Equal(["server", "version", "proto", "id", "mode", "role", "modules"], hello.Keys);
        Assert.Equal("redis"u8.ToArray(), hello["server"]);
        Assert.Equal("7.0.0"u8.ToArray(), hello["version"]);
        Assert.Equal(3L, hello["proto"]);
        Assert.True((long)hello["id"]! > 0);
        Assert.Equal(Array.Empty<object?>(), hello["modules"]);

        Assert.Equal("OK", client.Call("BF.RESERVE", "r3", "0.01", "100", "NONSCALING"));
        Assert.Equal(true, client.Call("BF.ADD", "r3", "a"));
        Assert.Equal(false, client.Call("BF.ADD", "r3", "a"));
        Assert.Equal(new object?[] { true, false }, client.Call("BF.MADD", "r3", "b", "a"));
        Assert.Equal(new object?[] { true, false }, client.Call("BF.MEXISTS", "r3", "b", "never-added"));
        Assert.Equal(false, client.Call("BF.EXISTS", "r3", "never-added"));
        Assert.Equal(2L, client.Call("BF.CARD", "r3"));

        var info = Assert.IsType<RespMap>(client.Call("BF.INFO", "r3"));
        Assert.Equal(["Capacity", "Size", "Number of filters", "Number of items inserted", "Expansion rate"], info.Keys);
        Assert.Equal(100L, info["Capacity"]);
        Assert.Equal(2L, info["Number of items inserted"]);
        Assert.Same(RespNull.Value, info["Expansion rate"]);
        Assert.Equal(new object?[] { RespNull.Value }, client.Call("BF.INFO", "r3", "EXPANSION"));

        var text = Assert.IsType<RespVerbatim>(client.Call("INFO"));
        Assert.Equal("txt", text.Format);
        Assert.Contains("redis_version:7.0.0", text.Text, StringComparison.Ordinal);
    }

    [Fact]
    public void Hello_2_returns_the_connection_to_resp2()
    {
        using RespClient client = fixture.Connect();
        client.Call("BF.RESERVE", "r2", "0.01", "100", "NONSCALING");
        Assert.IsType<RespMap>(client.Call("HELLO", "3"));

        var hello = Assert.IsType<object?[]>(client.Call("HELLO", "2"));

        Assert.Equal(14, hello.Length);
        Assert.Equal("proto"u8.ToArray(), hello[4]);
        Assert.Equal(2L, hello[5]);
        Assert.Equal(1L, client.Call("BF.ADD", "r2", "a"));
        var info = Assert.IsType<object?[]>(client.Call("BF.INFO", "r2"));
        Assert.Equal("Expansion rate", info[8]);
        Assert.Null(info[9]);
    }

    [Fact]
    public void Hello_without_a_version_answers_in_the_current_protocol()
    {
        using RespClient client = fixture.Connect();
        var resp2 = Assert.IsType<object?[]>(client.Call("HELLO"));
        Assert.Equal(2L, resp2[5]);

        client.Call("HELLO", "3");
        var resp3 = Assert.IsType<RespMap>(client.Call("HELLO"));
        Assert.Equal(3L, resp3["proto"]);
    }

    [Fact]
    public void Hello_takes_auth_for_the_default_user_and_setname()
    {
        using RespClient client = fixture.Connect();
        var hello = Assert.IsType<RespMap>(client.Call("HELLO", "3", "AUTH", "default", "any-password", "SETNAME", "operator-1"));
        Assert.Equal(3L, hello["proto"]);
    }

    [Theory]
    [InlineData("NOPROTO unsupported protocol version", new[] { "HELLO", "4" })]
    [InlineData("NOPROTO unsupported protocol version", new[] { "HELLO", "1" })]
    [InlineData("ERR Protocol version is not an integer or out of range", new[] { "HELLO", "three" })]
    [InlineData("WRONGPASS invalid username-password pair or user is disabled.", new[] { "HELLO", "3", "AUTH", "admin", "secret" })]
    [InlineData("ERR Client names cannot contain spaces, newlines or special characters.", new[] { "HELLO", "3", "SETNAME", "two words" })]
    [InlineData("ERR Syntax error in HELLO option 'SETNAME'", new[] { "HELLO", "3", "SETNAME" })]
    [InlineData("ERR Syntax error in HELLO option 'BOGUS'", new[] { "HELLO", "3", "BOGUS" })]
    public void A_refused_hello_is_an_error_and_leaves_the_protocol_unchanged(string expected, string[] command)
    {
        using RespClient client = fixture.Connect();

        var error = Assert.IsType<RespError>(client.Call(command));

        Assert.Equal(expected, error.Message);
        Assert.Equal(1L, client.Call("BF.ADD", $"refused-{Guid.NewGuid()}", "x"));
    }

    [Fact]
    public void Each_connection_has_its_own_protocol_and_id()
    {
        using RespClient resp3 = fixture.Connect();
        using RespClient resp2 = fixture.Connect();
        var first = Assert.IsType<RespMap>(resp3.Call("HELLO", "3"));
        var second = Assert.IsType<object?[]>(resp2.Call("HELLO"));

        Assert.NotEqual(first["id"], second[7]);
        Assert.Equal(true, resp3.Call("BF.ADD", "own", "x"));
        Assert.Equal(1L, resp2.Call("BF.EXISTS", "own", "x"));
    }
}
