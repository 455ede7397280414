using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>Many commands per write are answered in order; a command split across writes waits for its end.</summary>
public sealed class PipeliningTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    [Fact]
    public void A_thousand_commands_in_one_write_are_answered_in_order()
    {
        using RespClient client = fixture.Connect();
        var batch = new MemoryStream();
        for (int i = 0; i < 1000; i++)
        {
            batch.Write(RespClient.Encode("BF.ADD", "pipe", $"item-{i}"));
            batch.Write(RespClient.Encode("ECHO", $"echo-{i}"));
        }

        client.SendRaw(batch.ToArray());
        for (int i = 0; i < 1000; i++)
        {
            Assert.IsType<long>(client.Read());
            Assert.Equal($"echo-{i}", Encoding.UTF8.GetString((byte[])client.Read()!));
        }

        Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.MEXISTS", "pipe", "item-0", "item-999"));
    }

    [Fact]
    public void A_command_sent_one_byte_at_a_time_is_answered_once_whole()
    {
        using RespClient client = fixture.Connect();
        foreach (byte b in RespClient.Encode("BF.ADD", "trickle", "one-byte-at-a-time"))
        {
            client.SendRaw([b]);
        }

        Assert.Equal(1L, client.Read());
        Assert.Equal(1L, client.Call("BF.EXISTS", "trickle", "one-byte-at-a-time"));
    }

    [Fact]
    public void Empty_commands_are_skipped_as_redis_skips_them()
    {
        using RespClient client = fixture.Connect();
        client.SendRaw([.. "*0\r\n*-1\r\n"u8, .. RespClient.Encode("PING")]);
        Assert.Equal("PONG", client.Read());
    }

    [Fact]
    public void Replies_before_a_malformed_frame_are_sent_then_the_connection_closes()
    {
        using RespClient client = fixture.Connect();
        using RespClient other = fixture.Connect();
        client.SendRaw([.. RespClient.Encode("PING"), .. "*1\r\n$-5\r\n"u8]);
        Assert.Equal("PONG", client.Read());
        Assert.Equal(new RespError("ERR Protocol error: invalid bulk length"), client.Read());
        Assert.True(client.IsClosedByServer());
        Assert.Equal("PONG", other.Call("PING"));
    }

    [Fact]
    public async Task Replies_larger_than_the_socket_buffers_arrive_whole_and_in_order_as_the_client_reads()
    {
        // About 4 MB of replies, many times the socket's buffers: the daemon must wait for room to send, reading no more
        // meanwhile, while the client is still writing the rest of the batch.
        using RespClient client = fixture.Connect();
        object[] items = [.. Enumerable.Range(0, 500).Select(i => (object)$"big-{i}")];
        Assert.Equal(250, ((object?[])client.Call(["BF.MADD", "big", .. items[..250]])!).Length);
        byte[] check = RespClient.Encode(["BF.MEXISTS", "big", .. items]);
        var batch = new MemoryStream();
        for (int i = 0; i < 2000; i++)
        {
            batch.Write(check);
        }

        Task sending = Task.Run(() => client.SendRaw(batch.ToArray()));
        object?[] first = (object?[])client.Read()!;
        Assert.All(first[..250], answer => Assert.Equal(1L, answer));
        for (int i = 1; i < 2000; i++)
        {
            Assert.Equal(first, (object?[])client.Read()!);
        }

        await sending;
        Assert.Equal("PONG", client.Call("PING"));
    }
}
