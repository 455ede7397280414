using EventFilter.Daemon.Formats;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// BF.SCANDUMP and BF.LOADCHUNK in process (docs/daemon.md, "Backup and restore"): RedisBloom's loop moves a filter
/// between stores with every item intact; a key being restored does not exist until its last chunk, which is durable
/// when acknowledged; a dump taken while adds go on holds every add acknowledged before it began.
/// </summary>
public sealed class DumpRestoreTests
{
    [Fact]
    public void A_million_items_dumped_from_one_store_and_loaded_into_another_all_answer_maybe()
    {
        using var from = new TempDirectory();
        using var to = new TempDirectory();
        using var source = new InProcessCommands(from.Path);
        using var target = new InProcessCommands(to.Path);
        Assert.Equal("OK", source.Call("BF.RESERVE", "big", "0.01", "1000000"));
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "big", 0, 1_000_000))
        {
            source.Call(madd);
        }

        List<(long Iterator, byte[] Data)> chunks = DumpLoop.Dump(source.Call, "big");
        Assert.Equal(1 + ((source.Call("BF.CARD", "big") is long card ? card : 0) + 65535) / 65536, chunks.Count);
        DumpLoop.Load(target.Call, "big", chunks);

        foreach (object[] mexists in DumpLoop.Batches("BF.MEXISTS", "big", 0, 1_000_000))
        {
            Assert.All(Assert.IsType<object?[]>(target.Call(mexists)), answer => Assert.Equal(1L, answer));
        }

        Assert.Equal(source.Call("BF.INFO", "big"), target.Call("BF.INFO", "big"));
        Assert.Equal(chunks.Select(c => c.Data), DumpLoop.Dump(target.Call, "big").Select(c => c.Data));
    }

    [Fact]
    public void A_scaling_filter_comes_back_with_the_same_layers_and_count()
    {
        using var directory = new TempDirectory();
        using var daemon = new InProcessCommands(directory.Path);
        daemon.Call("BF.RESERVE", "grown", "0.01", "1000", "EXPANSION", "3");
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "grown", 0, 20_000))
        {
            daemon.Call(madd);
        }

        DumpLoop.Load(daemon.Call, "copy", DumpLoop.Dump(daemon.Call, "grown"));

        var info = Assert.IsType<object?[]>(daemon.Call("BF.INFO", "copy"));
        Assert.Equal(daemon.Call("BF.INFO", "grown"), info);
        Assert.True((long)info[5]! >= 3, "several layers");
        Assert.All(Assert.IsType<object?[]>(daemon.Call(DumpLoop.Batches("BF.MEXISTS", "copy", 0, 20_000, batch: 20_000).Single())), a => Assert.Equal(1L, a));
    }

    [Fact]
    public void A_key_being_restored_does_not_exist_until_its_last_chunk_then_survives_a_crash()
    {
        using var directory = new TempDirectory();
        using var crashed = new TempDirectory();
        using var daemon = new InProcessCommands(directory.Path);
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "src", 0, 70_000))
        {
            daemon.Call(madd);
        }

        List<(long Iterator, byte[] Data)> chunks = DumpLoop.Dump(daemon.Call, "src");
        Assert.Equal(3, chunks.Count);
        DumpLoop.Load(daemon.Call, "dst", chunks.Take(2));
        Assert.Equal(0L, daemon.Call("EXISTS", "dst"));
        Assert.Equal(0L, daemon.Call("BF.EXISTS", "dst", "item-1"));
        Assert.Equal(new object?[] { "src".ToBytes() }, daemon.Call("KEYS", "*"));

        DumpLoop.Load(daemon.Call, "dst", chunks.Skip(2));
        Assert.Equal(1L, daemon.Call("EXISTS", "dst"));

        // Acknowledged means durable: a copy as SIGKILL leaves it has the whole filter, and no leftover.
        CrashCopy.Make(directory.Path, Path.Combine(crashed.Path, "data"));
        using var reopened = new InProcessCommands(Path.Combine(crashed.Path, "data"));
        Assert.Equal(daemon.Call("BF.CARD", "src"), reopened.Call("BF.CARD", "dst"));
        Assert.All(Assert.IsType<object?[]>(reopened.Call(DumpLoop.Batches("BF.MEXISTS", "dst", 0, 70_000, batch: 70_000).Single())), a => Assert.Equal(1L, a));
        Assert.DoesNotContain(Directory.GetDirectories(Path.Combine(crashed.Path, "data", DataLayout.FiltersDirectory)), d => d.EndsWith(DataLayout.CreatingSuffix, StringComparison.Ordinal));
    }

    [Fact]
    public void A_restore_cut_off_by_a_crash_leaves_no_key_and_no_files()
    {
        using var directory = new TempDirectory();
        using var crashed = new TempDirectory();
        using var daemon = new InProcessCommands(directory.Path);
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "src", 0, 70_000))
        {
            daemon.Call(madd);
        }

        DumpLoop.Load(daemon.Call, "dst", DumpLoop.Dump(daemon.Call, "src").Take(2));
        CrashCopy.Make(directory.Path, crashed.Path + "/data");

        using var reopened = new InProcessCommands(crashed.Path + "/data");
        Assert.Equal(0L, reopened.Call("EXISTS", "dst"));
        Assert.Single(Directory.GetDirectories(Path.Combine(crashed.Path, "data", DataLayout.FiltersDirectory)));
    }

    [Fact]
    public void Under_periodic_sync_a_key_dropped_then_restored_is_not_dropped_again_by_the_next_start()
    {
        using var directory = new TempDirectory();
        using var crashed = new TempDirectory();
        using var daemon = new InProcessCommands(directory.Path, LogSync.Periodic);
        daemon.Call("BF.MADD", "k", "a", "b");
        daemon.Store.SyncDirectories();
        List<(long Iterator, byte[] Data)> chunks = DumpLoop.Dump(daemon.Call, "k");
        Assert.Equal(1L, daemon.Call("DEL", "k")); // a drop record, no tick after it
        DumpLoop.Load(daemon.Call, "k", chunks);

        CrashCopy.Make(directory.Path, crashed.Path + "/data");
        using var reopened = new InProcessCommands(crashed.Path + "/data", LogSync.Periodic);
        Assert.Equal(new object?[] { 1L, 1L }, reopened.Call("BF.MEXISTS", "k", "a", "b"));
    }

    [Fact]
    public void A_dump_taken_while_adds_go_on_holds_every_item_acknowledged_before_it_began()
    {
        using var directory = new TempDirectory();
        using var daemon = new InProcessCommands(directory.Path);
        foreach (object[] madd in DumpLoop.Batches("BF.MADD", "busy", 0, 100_000))
        {
            daemon.Call(madd);
        }

        object? acknowledged = daemon.Call("BF.CARD", "busy");

        // The loop by hand, with adds between its calls: the dump ends where the log ended at iterator 0.
        var chunks = new List<(long, byte[])>();
        int later = 100_000;
        for (long iterator = 0; ;)
        {
            var reply = (object?[])daemon.Call("BF.SCANDUMP", "busy", iterator)!;
            foreach (object[] madd in DumpLoop.Batches("BF.MADD", "busy", later, 5_000))
            {
                daemon.Call(madd);
            }

            later += 5_000;
            iterator = (long)reply[0]!;
            if (iterator == 0)
            {
                break;
            }

            chunks.Add((iterator, (byte[])reply[1]!));
        }

        DumpLoop.Load(daemon.Call, "copy", chunks);
        Assert.Equal(acknowledged, daemon.Call("BF.CARD", "copy"));
        Assert.All(Assert.IsType<object?[]>(daemon.Call(DumpLoop.Batches("BF.MEXISTS", "copy", 0, 100_000, batch: 100_000).Single())), a => Assert.Equal(1L, a));
    }

    [Fact]
    public void An_empty_filter_is_one_header_chunk_and_restores_at_once()
    {
        using var directory = new TempDirectory();
        using var daemon = new InProcessCommands(directory.Path);
        daemon.Call("BF.RESERVE", "empty", "0.001", "500", "NONSCALING");
        List<(long Iterator, byte[] Data)> chunks = DumpLoop.Dump(daemon.Call, "empty");

        DumpLoop.Load(daemon.Call, "copy", [Assert.Single(chunks)]);
        Assert.Equal(daemon.Call("BF.INFO", "empty"), daemon.Call("BF.INFO", "copy"));
        Assert.Equal(1L, daemon.Call("EXISTS", "copy"));
    }
}

internal static class TextBytes
{
    public static byte[] ToBytes(this string text) => System.Text.Encoding.UTF8.GetBytes(text);
}
