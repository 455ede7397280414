using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// What client libraries send on connect, answered as Redis 7 does (docs/daemon.md, "Commands"): COMMAND with an
/// entry per command, CLIENT with a name and id per connection, SELECT 0, DBSIZE and CONFIG GET, in RESP2 and RESP3.
/// </summary>
public sealed class ConnectCommandTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    private static readonly IEqualityComparer<byte[]> ByteArrays = EqualityComparer<byte[]>.Create((a, b) => a!.AsSpan().SequenceEqual(b), a => a.Length);

    [Fact]
    public void Command_has_an_entry_of_ten_elements_for_every_command_with_its_arity_flags_and_keys()
    {
        using RespClient client = fixture.Connect();
        object?[] all = Assert.IsType<object?[]>(client.Call("COMMAND"));
        Assert.Equal((long)all.Length, client.Call("COMMAND", "COUNT"));
        Assert.All(all, entry => Assert.Equal(10, Assert.IsType<object?[]>(entry).Length));

        Dictionary<string, object?[]> byName = all.Cast<object?[]>().ToDictionary(e => Encoding.ASCII.GetString((byte[])e[0]!));
        Assert.Superset(new HashSet<string>(["bf.add", "bf.madd", "bf.exists", "bf.reserve", "bf.insert", "bf.scandump", "bf.loadchunk", "del", "exists", "scan", "ping", "hello", "auth", "client", "config", "select", "dbsize", "command", "info"]), byName.Keys.ToHashSet());
        Assert.Equal(new object?[] { "bf.add"u8.ToArray(), 3L, new object?[] { "write", "denyoom" }, 1L, 1L, 1L, Array.Empty<object?>(), Array.Empty<object?>(), Array.Empty<object?>(), Array.Empty<object?>() }, byName["bf.add"]);
        Assert.Equal(-3L, byName["bf.madd"][1]);
        Assert.Equal(new object?[] { "readonly" }, byName["bf.exists"][2]);
        Assert.Equal(new object?[] { -2L, 1L, -1L, 1L }, new[] { byName["del"][1], byName["del"][3], byName["del"][4], byName["del"][5] });
        Assert.Equal(new object?[] { 0L, 0L, 0L }, byName["ping"][3..6]);

        object?[] clientSubcommands = Assert.IsType<object?[]>(byName["client"][9]);
        Assert.Contains(clientSubcommands.Cast<object?[]>(), s => Encoding.ASCII.GetString((byte[])s[0]!) == "client|setname" && (long)s[1]! == 3);
    }

    [Fact]
    public void Command_info_answers_each_name_asked_for_and_null_for_an_unknown_one()
    {
        using RespClient client = fixture.Connect();
        object?[] info = Assert.IsType<object?[]>(client.Call("COMMAND", "INFO", "BF.ADD", "no.such", "client|setname"));
        Assert.Equal("bf.add"u8.ToArray(), ((object?[])info[0]!)[0]);
        Assert.Null(info[1]);
        Assert.Equal("client|setname"u8.ToArray(), ((object?[])info[2]!)[0]);
        Assert.Contains("client|list"u8.ToArray(), Assert.IsType<object?[]>(client.Call("COMMAND", "LIST")).Cast<byte[]>(), ByteArrays);
        Assert.Equal("ERR unknown subcommand 'NOPE'. Try COMMAND HELP.", Assert.IsType<RespError>(client.Call("COMMAND", "NOPE")).Message);
        Assert.Equal("ERR wrong number of arguments for 'command|count' command", Assert.IsType<RespError>(client.Call("COMMAND", "COUNT", "x")).Message);
    }

    [Fact]
    public void In_resp3_flags_are_a_set_docs_a_map_and_an_unknown_command_null()
    {
        using RespClient client = fixture.Connect();
        client.Call("HELLO", "3");
        object?[] info = Assert.IsType<object?[]>(client.Call("COMMAND", "INFO", "BF.EXISTS", "nope"));
        object?[] entry = Assert.IsType<object?[]>(info[0]);
        Assert.Equal(["readonly"], Assert.IsType<RespSet>(entry[2]).Members);
        Assert.All(entry[6..], e => Assert.Empty(Assert.IsType<RespSet>(e).Members)); // categories, tips, key specifications, subcommands
        Assert.Same(RespNull.Value, info[1]);
        RespMap docs = Assert.IsType<RespMap>(client.Call("COMMAND", "DOCS", "BF.EXISTS"));
        var arguments = Assert.IsType<object?[]>(Assert.IsType<RespMap>(Assert.Single(docs.Entries).Value)["arguments"]);
        var item = Assert.IsType<RespMap>(arguments[1]);
        Assert.Equal(["name", "type"], item.Keys);
    }

    [Fact]
    public void Client_keeps_a_name_and_an_id_per_connection()
    {
        using RespClient client = fixture.Connect();
        using RespClient other = fixture.Connect();
        long id = Assert.IsType<long>(client.Call("CLIENT", "ID"));
        Assert.NotEqual(id, other.Call("CLIENT", "ID"));
        Assert.Null(client.Call("CLIENT", "GETNAME"));

        Assert.Equal("OK", client.Call("CLIENT", "SETNAME", "worker-1"));
        Assert.Equal("worker-1"u8.ToArray(), client.Call("client", "getname"));
        Assert.Null(other.Call("CLIENT", "GETNAME"));
        Assert.Equal("ERR Client names cannot contain spaces, newlines or special characters.", Assert.IsType<RespError>(client.Call("CLIENT", "SETNAME", "a b")).Message);
        Assert.Equal("worker-1"u8.ToArray(), client.Call("CLIENT", "GETNAME"));

        string line = Encoding.UTF8.GetString((byte[])client.Call("CLIENT", "INFO")!);
        Assert.StartsWith($"id={id} addr=", line, StringComparison.Ordinal);
        Assert.Contains(" name=worker-1 ", line, StringComparison.Ordinal);
        Assert.Contains(" flags=U db=0 ", line, StringComparison.Ordinal);
        Assert.EndsWith(" cmd=client|info user=default redir=-1 resp=2\n", line, StringComparison.Ordinal);
        // Every field of Redis 7.0.15's line, in its order: redis-py's client_info() and client_list() read them by name.
        string[] fields = ["id", "addr", "laddr", "fd", "name", "age", "idle", "flags", "db", "sub", "psub", "ssub", "multi", "qbuf", "qbuf-free",
            "argv-mem", "multi-mem", "rbs", "rbp", "obl", "oll", "omem", "tot-mem", "events", "cmd", "user", "redir", "resp"];
        Assert.Equal(fields, line.TrimEnd('\n').Split(' ').Select(field => field[..field.IndexOf('=')]));

        string list = Encoding.UTF8.GetString((byte[])other.Call("CLIENT", "LIST")!);
        Assert.Contains($"id={id} ", list, StringComparison.Ordinal);
        Assert.Contains(" name=worker-1 ", list, StringComparison.Ordinal);
        string one = Encoding.UTF8.GetString((byte[])other.Call("CLIENT", "LIST", "ID", id.ToString(System.Globalization.CultureInfo.InvariantCulture))!);
        Assert.Single(one.Split('\n', StringSplitOptions.RemoveEmptyEntries));

        Assert.Equal("OK", client.Call("CLIENT", "SETNAME", ""));
        Assert.Null(client.Call("CLIENT", "GETNAME"));
    }

    [Fact]
    public void Client_errors_and_resp3_replies_are_redis_s()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("ERR unknown subcommand 'NOPE'. Try CLIENT HELP.", Assert.IsType<RespError>(client.Call("CLIENT", "NOPE")).Message);
        Assert.Equal("ERR wrong number of arguments for 'client|setname' command", Assert.IsType<RespError>(client.Call("CLIENT", "SETNAME")).Message);
        Assert.Equal("ERR wrong number of arguments for 'client' command", Assert.IsType<RespError>(client.Call("CLIENT")).Message);

        Assert.IsType<RespMap>(client.Call("HELLO", "3", "SETNAME", "from-hello"));
        Assert.Equal("from-hello"u8.ToArray(), client.Call("CLIENT", "GETNAME"));
        var info = Assert.IsType<RespVerbatim>(client.Call("CLIENT", "INFO"));
        Assert.Equal("txt", info.Format);
        Assert.EndsWith(" resp=3\n", info.Text, StringComparison.Ordinal);
        Assert.IsType<RespVerbatim>(client.Call("CLIENT", "LIST"));
        Assert.Equal("OK", client.Call("CLIENT", "SETNAME", ""));
        Assert.Same(RespNull.Value, client.Call("CLIENT", "GETNAME"));
    }

    [Fact]
    public void Select_takes_database_0_only_and_dbsize_counts_the_filters()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("OK", client.Call("SELECT", "0"));
        Assert.Equal("ERR DB index is out of range", Assert.IsType<RespError>(client.Call("SELECT", "1")).Message);
        Assert.Equal("ERR DB index is out of range", Assert.IsType<RespError>(client.Call("SELECT", "-1")).Message);
        Assert.Equal("ERR value is not an integer or out of range", Assert.IsType<RespError>(client.Call("SELECT", "zero")).Message);

        long before = Assert.IsType<long>(client.Call("DBSIZE"));
        Assert.Equal(((object?[])client.Call("KEYS", "*")!).Length, before);
        Assert.Equal("OK", client.Call("BF.RESERVE", "dbsize-one", "0.01", "100"));
        Assert.Equal(before + 1, client.Call("DBSIZE"));
        Assert.Equal(1L, client.Call("DEL", "dbsize-one"));
        Assert.Equal(before, client.Call("DBSIZE"));
    }

    [Fact]
    public void Config_get_answers_the_parameters_that_match_and_nothing_else()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal(new object?[] { "maxclients"u8.ToArray(), "1024"u8.ToArray() }, client.Call("CONFIG", "GET", "maxclients"));
        Assert.Equal(new object?[] { "DATABASES"u8.ToArray(), "1"u8.ToArray() }, client.Call("CONFIG", "GET", "DATABASES"));
        Assert.Equal(new object?[] { "databases"u8.ToArray(), "1"u8.ToArray() }, client.Call("CONFIG", "GET", "DATA*"));
        Assert.Equal(Array.Empty<object?>(), client.Call("CONFIG", "GET", "lua-time-limit"));

        // What redis-benchmark asks at its start (it warned "Could not fetch server CONFIG" when they were not answered).
        Assert.Equal(new object?[] { "save"u8.ToArray(), Array.Empty<byte>() }, client.Call("CONFIG", "GET", "save"));
        Assert.Equal(new object?[] { "appendonly"u8.ToArray(), "yes"u8.ToArray() }, client.Call("CONFIG", "GET", "appendonly"));
        object?[] both = Assert.IsType<object?[]>(client.Call("CONFIG", "GET", "max*", "maxclients"));
        Assert.Equal(["maxclients", "maxmemory", "maxmemory-policy"], both.Where((_, i) => i % 2 == 0).Select(n => Encoding.ASCII.GetString((byte[])n!)).Order(StringComparer.Ordinal));
        Assert.Equal("ERR unknown subcommand 'SET'. Try CONFIG HELP.", Assert.IsType<RespError>(client.Call("CONFIG", "SET", "maxclients", "1")).Message);

        client.Call("HELLO", "3");
        var map = Assert.IsType<RespMap>(client.Call("CONFIG", "GET", "databases"));
        Assert.Equal("1"u8.ToArray(), map["databases"]);
    }
}
