namespace EventFilter.Daemon.Tests;

/// <summary>
/// A restore belongs to its key, not to a connection (docs/daemon.md, "Backup and restore"): when the client that fed
/// it last disconnects, its descriptors are freed at once (before, they stayed open until a DEL or 5 idle minutes), and
/// another connection goes on with the next chunk and loses nothing.
/// </summary>
public sealed class RestoreDisconnectTests
{
    private const int Items = 70_000; // two items chunks of 65,536

    [Fact]
    public void A_disconnect_frees_the_restores_descriptors_and_another_connection_finishes_it()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--log-sync", "periodic");
        List<(long Iterator, byte[] Data)> chunks;
        object? count;
        using (RespClient source = daemon.Connect())
        {
            foreach (object[] batch in DumpLoop.Batches("BF.MADD", "source", 0, Items))
            {
                source.Call(batch);
            }

            chunks = DumpLoop.Dump(source.Call, "source");
            count = source.Call("BF.CARD", "source");
        }

        Assert.Equal(3, chunks.Count); // the header and two items chunks
        using (RespClient first = daemon.Connect())
        {
            DumpLoop.Load(first.Call, "copy", chunks.Take(2));
            Assert.NotEqual(0, RestoreDescriptors(daemon));

            // A client that fed no chunk leaves: the restore stays open.
            using (RespClient other = daemon.Connect())
            {
                Assert.Equal("PONG", other.Call("PING"));
            }

            Assert.Equal("PONG", first.Call("PING"));
            Assert.NotEqual(0, RestoreDescriptors(daemon));
        }

        Poll.Until(() => RestoreDescriptors(daemon) == 0, "the disconnect to free the restore's descriptors");
        string filters = Path.Combine(directory.Path, "filters");
        Assert.Single(Directory.GetDirectories(filters, "*.restore-*"));

        using RespClient second = daemon.Connect();
        Assert.Equal(0L, second.Call("EXISTS", "copy"));
        DumpLoop.Load(second.Call, "copy", chunks.Skip(2));
        Assert.Empty(Directory.GetDirectories(filters, "*.restore-*"));
        Assert.Equal(count, second.Call("BF.CARD", "copy"));
        foreach (object[] batch in DumpLoop.Batches("BF.MEXISTS", "copy", 0, Items, batch: 10_000))
        {
            Assert.All(Assert.IsType<object?[]>(second.Call(batch)), found => Assert.Equal(1L, found));
        }

        Assert.Equal(0, daemon.Stop());
    }

    /// <summary>The daemon's descriptors open on a file of an unfinished restore.</summary>
    private static int RestoreDescriptors(DaemonProcess daemon) =>
        Directory.GetFiles($"/proc/{daemon.Id}/fd").Count(fd => Target(fd).Contains(".restore-", StringComparison.Ordinal));

    /// <summary>What a descriptor is open on; empty for one closed since the listing.</summary>
    private static string Target(string descriptor)
    {
        try
        {
            return new FileInfo(descriptor).LinkTarget ?? "";
        }
        catch (IOException)
        {
            return "";
        }
    }
}
