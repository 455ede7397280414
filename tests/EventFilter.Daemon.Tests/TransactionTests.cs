namespace EventFilter.Daemon.Tests;

/// <summary>
/// MULTI, EXEC, DISCARD, WATCH and UNWATCH as Redis answers them (docs/daemon.md, "Transactions"). Pins the failure
/// where MULTI and EXEC were unknown but the commands between them ran, so a client was told a write failed that
/// had happened.
/// </summary>
public sealed class TransactionTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public void Queued_commands_run_at_exec_and_not_before()
    {
        using RespClient client = fixture.Connect();
        using RespClient other = fixture.Connect();
        Assert.Equal("OK", client.Call("MULTI"));
        Assert.Equal("QUEUED", client.Call("BF.ADD", "tx-queued", "a"));
        Assert.Equal("QUEUED", client.Call("BF.MADD", "tx-queued", "a", "b"));
        Assert.Equal("QUEUED", client.Call("BF.EXISTS", "tx-queued", "b"));
        Assert.Equal("QUEUED", client.Call("BF.RESERVE", "tx-queued", "0.01", "100"));
        Assert.Equal("QUEUED", client.Call("PING"));
        Assert.Equal(0L, other.Call("EXISTS", "tx-queued"));

        object?[] replies = Assert.IsType<object?[]>(client.Call("EXEC"));
        Assert.Equal(5, replies.Length);
        Assert.Equal(1L, replies[0]);
        Assert.Equal(new object?[] { 0L, 1L }, replies[1]);
        Assert.Equal(1L, replies[2]);
        Assert.Equal("ERR item exists", Assert.IsType<RespError>(replies[3]).Message); // an error at EXEC is one reply; the rest ran
        Assert.Equal("PONG", replies[4]);
        Assert.Equal(1L, other.Call("BF.EXISTS", "tx-queued", "b"));
        Assert.Equal("PONG", client.Call("PING")); // the connection is out of MULTI
    }

    [Fact]
    public void A_command_refused_while_queuing_aborts_the_exec_and_nothing_runs()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("OK", client.Call("MULTI"));
        Assert.Equal("QUEUED", client.Call("BF.ADD", "tx-aborted", "a"));
        Assert.StartsWith("ERR unknown command 'NOPE'", Assert.IsType<RespError>(client.Call("NOPE")).Message, StringComparison.Ordinal);
        Assert.Equal("ERR wrong number of arguments for 'bf.add' command", Assert.IsType<RespError>(client.Call("BF.ADD", "tx-aborted")).Message);
        Assert.Equal("ERR unknown subcommand 'NOPE'. Try CLIENT HELP.", Assert.IsType<RespError>(client.Call("CLIENT", "NOPE")).Message);
        Assert.Equal("EXECABORT Transaction discarded because of previous errors.", Assert.IsType<RespError>(client.Call("EXEC")).Message);
        Assert.Equal(0L, client.Call("EXISTS", "tx-aborted"));
    }

    [Fact]
    public void Discard_drops_the_queue_and_misplaced_commands_get_redis_s_errors()
    {
        using RespClient client = fixture.Connect();
        Assert.Equal("ERR EXEC without MULTI", Assert.IsType<RespError>(client.Call("EXEC")).Message);
        Assert.Equal("ERR DISCARD without MULTI", Assert.IsType<RespError>(client.Call("DISCARD")).Message);
        Assert.Equal("OK", client.Call("MULTI"));
        Assert.Equal("ERR MULTI calls can not be nested", Assert.IsType<RespError>(client.Call("MULTI")).Message);
        Assert.Equal("ERR WATCH inside MULTI is not allowed", Assert.IsType<RespError>(client.Call("WATCH", "k")).Message);
        Assert.Equal("QUEUED", client.Call("BF.ADD", "tx-discarded", "a"));
        Assert.Equal("OK", client.Call("DISCARD"));
        Assert.Equal(0L, client.Call("EXISTS", "tx-discarded"));

        // Those errors did not abort a transaction: this one runs.
        Assert.Equal("OK", client.Call("MULTI"));
        Assert.Equal("QUEUED", client.Call("BF.ADD", "tx-discarded", "b"));
        Assert.Equal(new object?[] { 1L }, client.Call("EXEC"));
    }

    [Fact]
    public void Watch_is_refused_clearly_and_unwatch_answers_ok()
    {
        using RespClient client = fixture.Connect();
        Assert.StartsWith("ERR WATCH is not supported", Assert.IsType<RespError>(client.Call("WATCH", "k")).Message, StringComparison.Ordinal);
        Assert.Equal("OK", client.Call("UNWATCH"));
        Assert.Equal("OK", client.Call("MULTI"));
        Assert.Equal("QUEUED", client.Call("UNWATCH"));
        Assert.Equal(new object?[] { "OK" }, client.Call("EXEC"));
    }

    [Fact]
    public void Client_info_shows_the_transaction()
    {
        using RespClient client = fixture.Connect();
        using RespClient other = fixture.Connect();
        long id = Assert.IsType<long>(client.Call("CLIENT", "ID"));
        Assert.Equal("OK", client.Call("MULTI"));
        Assert.Equal("QUEUED", client.Call("BF.ADD", "tx-info", "abc")); // 6 + 7 + 3 bytes of arguments
        string line = System.Text.Encoding.UTF8.GetString((byte[])other.Call("CLIENT", "LIST", "ID", id.ToString(System.Globalization.CultureInfo.InvariantCulture))!);
        Assert.Contains(" flags=xU ", line, StringComparison.Ordinal);
        Assert.Contains(" multi=1 ", line, StringComparison.Ordinal);
        Assert.Contains(" multi-mem=16 ", line, StringComparison.Ordinal);
        Assert.Equal("OK", client.Call("DISCARD"));
    }
}
