using EventFilter.Daemon.Commands;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// AUTH with --requirepass-file: every command but AUTH, HELLO and QUIT answers -NOAUTH until the password is given,
/// and changes nothing; wrong passwords, wrong users and repeated AUTH answer as Redis does and crash nothing.
/// </summary>
public sealed class AuthTests(PasswordDaemonFixture fixture) : IClassFixture<PasswordDaemonFixture>
{
    private const string NoAuth = "NOAUTH Authentication required.";
    private const string WrongPass = "WRONGPASS invalid username-password pair or user is disabled.";

    [Fact]
    public void Every_command_before_auth_is_refused_with_noauth_and_changes_nothing()
    {
        using RespClient client = fixture.Daemon.Connect();
        string[] gated = [.. CommandTable.Names.Where(n => n is not ("AUTH" or "HELLO" or "QUIT")), "NO.SUCH.COMMAND"];
        Assert.Contains("BF.ADD", gated);
        foreach (string name in gated)
        {
            // Arguments that would make each command do something (BF.ADD adds, FLUSHALL deletes): the gate comes first.
            var error = Assert.IsType<RespError>(client.Call(name, "noauth-key", "0.01", "100"));
            Assert.Equal(NoAuth, error.Message);
        }

        Assert.Equal("OK", client.Call("AUTH", PasswordDaemonFixture.Password));
        Assert.Equal(0L, client.Call("EXISTS", "noauth-key"));
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Fact]
    public void Wrong_password_or_user_is_refused_and_the_connection_stays_unauthenticated()
    {
        using RespClient client = fixture.Daemon.Connect();
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("AUTH", "wrong")).Message);
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("AUTH", "default", "wrong")).Message);
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("AUTH", "admin", PasswordDaemonFixture.Password)).Message);
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("AUTH", PasswordDaemonFixture.Password + "x")).Message);
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("AUTH", "")).Message);
        Assert.Equal(NoAuth, Assert.IsType<RespError>(client.Call("PING")).Message);
        Assert.Equal("ERR wrong number of arguments for 'auth' command", Assert.IsType<RespError>(client.Call("AUTH")).Message);
        Assert.Equal("OK", client.Call("AUTH", "default", PasswordDaemonFixture.Password));
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Fact]
    public void Auth_on_an_authenticated_connection_answers_and_keeps_it_authenticated()
    {
        using RespClient client = fixture.Daemon.Connect();
        Assert.Equal("OK", client.Call("AUTH", PasswordDaemonFixture.Password));
        Assert.Equal("OK", client.Call("AUTH", PasswordDaemonFixture.Password));
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("AUTH", "wrong")).Message);
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Fact]
    public void Hello_needs_its_auth_option_before_authentication()
    {
        using RespClient client = fixture.Daemon.Connect();
        var refused = Assert.IsType<RespError>(client.Call("HELLO", "3"));
        Assert.StartsWith("NOAUTH HELLO must be called with the client already authenticated", refused.Message, StringComparison.Ordinal);
        Assert.Equal(WrongPass, Assert.IsType<RespError>(client.Call("HELLO", "3", "AUTH", "default", "wrong")).Message);

        // A refused HELLO changes nothing, the protocol included: still RESP2 and unauthenticated.
        Assert.Equal(NoAuth, Assert.IsType<RespError>(client.Call("PING")).Message);
        Assert.IsType<RespMap>(client.Call("HELLO", "3", "AUTH", "default", PasswordDaemonFixture.Password));
        Assert.Equal("PONG", client.Call("PING"));
        Assert.IsType<RespMap>(client.Call("HELLO", "3"));
    }

    [Fact]
    public void Quit_is_answered_before_auth()
    {
        using RespClient client = fixture.Daemon.Connect();
        Assert.Equal("OK", client.Call("QUIT"));
        Assert.True(client.IsClosedByServer());
    }

    [Fact]
    public async Task StackExchange_Redis_authenticates_with_the_password()
    {
        foreach (StackExchange.Redis.RedisProtocol protocol in (StackExchange.Redis.RedisProtocol[])[StackExchange.Redis.RedisProtocol.Resp2, StackExchange.Redis.RedisProtocol.Resp3])
        {
            var options = new StackExchange.Redis.ConfigurationOptions { AbortOnConnectFail = true, ConnectTimeout = 10_000, Password = PasswordDaemonFixture.Password, Protocol = protocol };
            options.EndPoints.Add(new System.Net.Sockets.UnixDomainSocketEndPoint(fixture.Daemon.SocketPath));
            await using var redis = await StackExchange.Redis.ConnectionMultiplexer.ConnectAsync(options);
            Assert.Equal(1, (int)await redis.GetDatabase().ExecuteAsync("BF.ADD", $"se-auth-{protocol}", "alice"));
        }
    }
}
