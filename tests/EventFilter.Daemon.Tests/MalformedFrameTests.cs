using System.Text;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// Random and malformed RESP frames, each on its own connection: huge and negative lengths, nested arrays, truncated
/// frames, junk. The daemon never crashes, its memory stays bounded, and a client beside them is unaffected.
/// </summary>
public sealed class MalformedFrameTests
{
    [Fact]
    public void Malformed_frames_close_only_their_own_connection()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        using RespClient bystander = daemon.Connect();
        Assert.Equal(1L, bystander.Call("BF.ADD", "steady", "before"));
        long rssBefore = daemon.ResidentBytes();
        var random = new Random(1414);
        int frames = ReliabilityScale.Pick(10_000, 100_000);
        for (int i = 0; i < frames; i++)
        {
            byte[] frame = MalformedFrame(random, i);
            using (RespClient attacker = daemon.Connect())
            {
                attacker.SendRaw(frame);
                attacker.ShutdownSend();

                // Whatever it answers, the daemon must end the connection: at end of input, or on the error.
                while (!attacker.IsClosedByServer())
                {
                }
            }

            if (i % 500 == 0)
            {
                Assert.Equal(0L, bystander.Call("BF.ADD", "steady", "before"));
                Assert.Equal(1L, bystander.Call("BF.EXISTS", "steady", "before"));
            }
        }

        Assert.False(daemon.HasExited, daemon.Output);
        Assert.Equal("PONG", bystander.Call("PING"));
        Assert.Equal(new object?[] { 1L }, bystander.Call("BF.MADD", "steady", "after"));
        long grown = daemon.ResidentBytes() - rssBefore;
        Assert.True(grown < 64L << 20, $"RSS grew by {grown / 1024} KiB over {frames} malformed frames");
    }

    private static byte[] MalformedFrame(Random random, int index)
    {
        byte[] valid = RespClient.Encode("BF.ADD", $"fuzz{random.Next(4)}", $"item{index}");
        return (index % 10) switch
        {
            0 => Encoding.ASCII.GetBytes($"*1\r\n${random.NextInt64(1L << 20, long.MaxValue)}\r\n"),
            1 => Encoding.ASCII.GetBytes($"*{random.Next(-1000, -1)}\r\n"),
            2 => Encoding.ASCII.GetBytes($"*1\r\n${random.Next(-1000, -1)}\r\n"),
            3 => Encoding.ASCII.GetBytes(string.Concat(Enumerable.Repeat("*1\r\n", random.Next(2, 5000)))),
            4 => valid[..random.Next(1, valid.Length)],
            5 => Encoding.ASCII.GetBytes($"*{random.NextInt64(2_000_000, long.MaxValue)}\r\n"),
            6 => Encoding.ASCII.GetBytes("*1\r\n$" + new string('9', random.Next(20, 200))),
            7 => Flip(random, valid),
            8 => RandomBytes(random),
            _ => [.. valid, .. RandomBytes(random)],
        };
    }

    private static byte[] Flip(Random random, byte[] frame)
    {
        byte[] copy = (byte[])frame.Clone();
        copy[random.Next(copy.Length)] ^= (byte)(1 << random.Next(8));
        return copy;
    }

    private static byte[] RandomBytes(Random random)
    {
        byte[] bytes = new byte[random.Next(1, 300)];
        random.NextBytes(bytes);
        return bytes;
    }
}
