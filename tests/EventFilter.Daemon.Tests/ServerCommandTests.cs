using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>PING, ECHO, QUIT, COMMAND, INFO, and the errors for unknown commands and wrong argument counts.</summary>
public sealed class ServerCommandTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public void Ping_answers_pong_or_its_argument()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("PONG", client.Call("PING"));
        Assert.Equal("hello"u8.ToArray(), client.Call("ping", "hello"));
    }

    [Fact]
    public void Echo_returns_binary_bytes_unchanged()
    {
        using RespClient client = fixture.Connect();
        byte[] binary = [0, 1, 13, 10, 255, (byte)'$', (byte)'*'];
        Assert.Equal(binary, client.Call("ECHO", binary));
    }

    [Fact]
    public void Quit_answers_ok_and_closes_the_connection()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("OK", client.Call("QUIT"));
        Assert.True(client.IsClosedByServer());
    }

    [Fact]
    public void Command_docs_documents_every_command_and_subcommand()
    {
        using RespClient client = fixture.Connect();
        object?[] docs = Assert.IsType<object?[]>(client.Call("COMMAND", "DOCS"));
        var names = new List<string>();
        for (int i = 0; i < docs.Length; i += 2)
        {
            string name = Encoding.ASCII.GetString((byte[])docs[i]!);
            names.Add(name);
            string[] fields = Fields(docs[i + 1]);
            Assert.True(fields[..3].SequenceEqual(["summary", "since", "group"]), $"{name}: {string.Join(' ', fields)}");
        }

        Assert.Equal(Assert.IsType<long>(client.Call("COMMAND", "COUNT")), names.Count);

        // One by name, a subcommand by container|sub; unknown names are left out.
        object?[] one = Assert.IsType<object?[]>(client.Call("COMMAND", "DOCS", "bf.add", "client|list", "no.such"));
        Assert.Equal(4, one.Length);
        Assert.Equal("client|list"u8.ToArray(), one[2]);
        object?[] bfAdd = Assert.IsType<object?[]>(one[1]);
        Assert.Equal(["summary", "since", "group", "module", "arguments"], Fields(bfAdd));
        Assert.Equal("bf"u8.ToArray(), bfAdd[7]);
        object?[] item = Assert.IsType<object?[]>(Assert.IsType<object?[]>(bfAdd[9])[1]);
        Assert.Equal(["name", "type"], Fields(item));
    }

    private static string[] Fields(object? map)
    {
        object?[] pairs = Assert.IsType<object?[]>(map);
        return [.. pairs.Where((_, i) => i % 2 == 0).Select(key => Encoding.ASCII.GetString((byte[])key!))];
    }

    [Fact]
    public void Info_reports_the_server_and_its_filters()
    {
        using RespClient client = fixture.Connect();
        string info = Encoding.UTF8.GetString((byte[])client.Call("INFO")!);
        Assert.Contains("redis_version:", info, StringComparison.Ordinal);
        Assert.Contains($"eventfilterd_version:{Commands.ServerCommands.DaemonVersion}\r\n", info, StringComparison.Ordinal);
        Assert.DoesNotContain("eventfilterd_version:0.0.0.0", info, StringComparison.Ordinal);
        Assert.Contains("log_sync:always", info, StringComparison.Ordinal);
        Assert.Contains("filters:", info, StringComparison.Ordinal);
        Assert.Contains("health:healthy\r\nhealth_reason:listening, no storage failure in the last minute\r\n", info, StringComparison.Ordinal);
    }

    [Fact]
    public void Unknown_command_is_an_error_and_the_connection_stays_open()
    {
        using RespClient client = fixture.Connect();
        var error = Assert.IsType<RespError>(client.Call("BF.NOPE", "k", "v"));
        Assert.Equal("ERR unknown command 'BF.NOPE', with args beginning with: 'k' 'v' ", error.Message);
        Assert.Equal("PONG", client.Call("PING"));
    }

    [Theory]
    [InlineData("bf.add", new[] { "BF.ADD", "k" })]
    [InlineData("bf.add", new[] { "BF.ADD", "k", "a", "b" })]
    [InlineData("bf.exists", new[] { "BF.EXISTS", "k" })]
    [InlineData("bf.madd", new[] { "BF.MADD", "k" })]
    [InlineData("bf.mexists", new[] { "BF.MEXISTS", "k" })]
    [InlineData("bf.reserve", new[] { "BF.RESERVE", "k", "0.01" })]
    [InlineData("bf.info", new[] { "BF.INFO" })]
    [InlineData("bf.card", new[] { "BF.CARD" })]
    [InlineData("bf.insert", new[] { "BF.INSERT", "k", "ITEMS" })]
    [InlineData("echo", new[] { "ECHO" })]
    [InlineData("keys", new[] { "KEYS" })]
    [InlineData("del", new[] { "DEL" })]
    [InlineData("exists", new[] { "EXISTS" })]
    public void Wrong_number_of_arguments_is_redis_error_and_changes_nothing(string name, string[] command)
    {
        using RespClient client = fixture.Connect();
        var error = Assert.IsType<RespError>(client.Call(command));
        Assert.Equal($"ERR wrong number of arguments for '{name}' command", error.Message);
        Assert.Equal(0L, client.Call("EXISTS", "k"));
    }
}
