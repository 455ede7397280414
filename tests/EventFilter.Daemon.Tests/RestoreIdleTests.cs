namespace EventFilter.Daemon.Tests;

/// <summary>
/// An unfinished restore holds a directory and descriptors; one whose client went away is abandoned by a sync tick
/// once idle past FilterRestores.IdleLimit (docs/daemon.md, "Backup and restore"), time driven by a fake clock.
/// </summary>
public sealed class RestoreIdleTests
{
    [Fact]
    public void An_unfinished_restore_idle_past_the_limit_is_abandoned_by_a_tick_with_its_files()
    {
        using var directory = new TempDirectory();
        var time = new Microsoft.Extensions.Time.Testing.FakeTimeProvider();
        using var daemon = new InProcessCommands(directory.Path, LogSync.Periodic, time);
        Assert.Equal(1L, daemon.Call("BF.ADD", "source", "a"));
        object?[] header = (object?[])daemon.Call("BF.SCANDUMP", "source", "0")!;
        object?[] items = (object?[])daemon.Call("BF.SCANDUMP", "source", header[0]!)!;
        Assert.Equal("OK", daemon.Call("BF.LOADCHUNK", "copy", header[0]!, header[1]!));
        string filters = Path.Combine(directory.Path, "filters");

        time.Advance(EventFilter.Daemon.Filters.FilterRestores.IdleLimit);
        daemon.Store.SyncDirectories();
        Assert.Single(Directory.GetDirectories(filters, "*.restore-*")); // idle for the limit, not past it

        time.Advance(TimeSpan.FromSeconds(1));
        daemon.Store.SyncDirectories();
        Assert.Empty(Directory.GetDirectories(filters, "*.restore-*"));
        Assert.IsType<RespError>(daemon.Call("BF.LOADCHUNK", "copy", items[0]!, items[1]!));
        Assert.Equal(0L, daemon.Call("EXISTS", "copy"));
    }
}
