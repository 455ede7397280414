namespace EventFilter.Daemon.Tests;

/// <summary>
/// With --log-sync periodic a new filter's first items are held in memory, their digests in the control log, and the
/// next tick gives it its directory, log and layers (docs/daemon-design.md, "Durability"): they survive SIGKILL before that
/// tick, a start makes their files, a drop of a filter with files survives SIGKILL, and an add past what a new filter
/// holds makes its files at once.
/// </summary>
public sealed class HeldItemsTests
{
    // No tick during a test: whatever is on disk at the kill was put there by the commands themselves.
    private const string NoTick = "3600000";

    [Fact]
    public void First_items_survive_sigkill_before_the_tick_and_the_start_gives_them_files()
    {
        using var directory = new TempDirectory();
        string filters = Path.Combine(directory.Path, "filters");
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            Assert.Equal("OK", client.Call("BF.RESERVE", "reserved", "0.001", "1000000"));
            Assert.Equal(new object?[] { 1L, 1L, 1L }, client.Call("BF.MADD", "reserved", "a", "b", "c"));
            Assert.Equal(new object?[] { 0L, 1L }, client.Call("BF.MADD", "reserved", "a", "d"));
            Assert.Equal(1L, client.Call("BF.ADD", "added", "x"));
            Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.INSERT", "inserted", "ITEMS", "p", "q"));
            Assert.Equal(1L, client.Call("BF.ADD", "gone", "y"));
            Assert.Equal(1L, client.Call("DEL", "gone"));
            Assert.Equal(1L, client.Call("BF.ADD", "again", "old"));
            Assert.Equal(1L, client.Call("DEL", "again"));
            Assert.Equal(1L, client.Call("BF.ADD", "again", "new"));
            Assert.Equal(4L, client.Call("BF.CARD", "reserved"));
            Assert.Empty(Directory.GetDirectories(filters)); // nothing but control-log records so far
            daemon.Kill();
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick);
        using RespClient reader = restarted.Connect();
        Assert.Equal(new object?[] { 1L, 1L, 1L, 1L, 0L }, reader.Call("BF.MEXISTS", "reserved", "a", "b", "c", "d", "never added"));
        Assert.Equal(4L, reader.Call("BF.CARD", "reserved"));
        Assert.Equal(new object?[] { 1_000_000L }, reader.Call("BF.INFO", "reserved", "CAPACITY"));
        Assert.Equal(1L, reader.Call("BF.EXISTS", "added", "x"));
        Assert.Equal(new object?[] { 1L, 1L }, reader.Call("BF.MEXISTS", "inserted", "p", "q"));
        Assert.Equal(0L, reader.Call("EXISTS", "gone"));
        Assert.Equal(new object?[] { 0L, 1L }, reader.Call("BF.MEXISTS", "again", "old", "new"));
        Assert.Equal(1L, reader.Call("BF.CARD", "again"));
        // The start's tick gave every filter with items its files, each log holding them.
        Assert.Equal(
            new[] { "added", "again", "inserted", "reserved" }.Select(key => FilterDirectory(directory.Path, key)).Order(),
            Directory.GetDirectories(filters).Order());
        Assert.Equal(40 + (4 * 8), new FileInfo(Path.Combine(FilterDirectory(directory.Path, "reserved"), "digest.log")).Length);
    }

    [Fact]
    public void A_tick_gives_a_new_filter_its_files_and_a_drop_of_them_survives_sigkill()
    {
        using var directory = new TempDirectory();
        string filter = FilterDirectory(directory.Path, "ticked");
        using (DaemonProcess ticking = DaemonProcess.Start(directory.Path, "--sync-interval-ms", "10"))
        {
            using RespClient client = ticking.Connect();
            Assert.Equal(1L, client.Call("BF.ADD", "ticked", "a"));
            Poll.Until(() => File.Exists(Path.Combine(filter, "layer-000.filter")), "a tick to make the filter's files");
            Assert.Equal(1L, client.Call("BF.ADD", "ticked", "b")); // now into its own log
            Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.MEXISTS", "ticked", "a", "b"));
            Assert.Equal(0, ticking.Stop());
        }

        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.MEXISTS", "ticked", "a", "b"));
            Assert.Equal(1L, client.Call("DEL", "ticked"));
            daemon.Kill();
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick);
        using RespClient reader = restarted.Connect();
        Assert.Equal(0L, reader.Call("EXISTS", "ticked"));
        Assert.Empty(Directory.GetDirectories(Path.Combine(directory.Path, "filters")));
    }

    [Fact]
    public void An_add_past_what_a_new_filter_holds_gives_it_its_files_at_once()
    {
        using var directory = new TempDirectory();
        string filter = FilterDirectory(directory.Path, "small");
        string[] items = [.. Enumerable.Range(0, 12).Select(i => $"item{i}")];
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            Assert.Equal("OK", client.Call("BF.RESERVE", "small", "0.01", "5"));
            Assert.Equal(new object?[] { 1L, 1L, 1L, 1L, 1L }, client.Call(["BF.MADD", "small", .. items[..5]]));
            Assert.False(Directory.Exists(filter), "as many items as its first layer takes are held");
            object?[] answers = (object?[])client.Call(["BF.MADD", "small", .. items[5..]])!;
            Assert.True(Directory.Exists(filter), "the add past them made the files");
            Assert.True(File.Exists(Path.Combine(filter, "layer-001.filter")), "the first layer took the held items, full: the filter grew");
            long added = 5 + answers.Count(answer => Equals(answer, 1L));
            Assert.Equal(added, client.Call("BF.CARD", "small"));
            daemon.Kill();
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick);
        using RespClient reader = restarted.Connect();
        Assert.All((object?[])reader.Call(["BF.MEXISTS", "small", .. items])!, answer => Assert.Equal(1L, answer));
    }

    private static string FilterDirectory(string dataDirectory, string key) =>
        Path.Combine(dataDirectory, "filters", "k" + Convert.ToHexStringLower(System.Text.Encoding.UTF8.GetBytes(key)));
}
