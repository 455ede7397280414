namespace EventFilter.Daemon.Tests;

/// <summary>
/// Creates and drops follow --log-sync (docs/daemon-design.md, "Durability"): a filter's log header that never reached the
/// disk (power loss within a sync interval of its create) is dropped at start with a warning, while a damaged header
/// stops the start; creates and drops survive SIGKILL before any sync tick; a new filter has no file until the tick
/// after its first add (its create and its first items are control-log records); a dropped filter's files go at the next tick.
/// </summary>
public sealed class CreateDropDurabilityTests
{
    // No tick during a test: whatever is on disk at the kill was put there by the commands themselves.
    private const string NoTick = "3600000";

    [Theory]
    [InlineData("missing")]
    [InlineData("empty")]
    [InlineData("short")]
    [InlineData("zeros")]
    public void A_log_header_that_never_reached_the_disk_drops_that_filter_with_a_warning(string damage)
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.MADD", "kept", "a", "b");
            client.Call("BF.ADD", "lost", "a"); // the first add makes a filter's files
            Assert.Equal(0, daemon.Stop());
        }

        // What power loss can leave of a create that the periodic sync never reached: no log, an empty one, a short
        // one, or one whose blocks were allocated but never written (zeros, whatever follows the header).
        string lost = FilterDirectory(directory.Path, "lost");
        string log = Path.Combine(lost, "digest.log");
        switch (damage)
        {
            case "missing": File.Delete(log); break;
            case "empty": File.WriteAllBytes(log, []); break;
            case "short": File.WriteAllBytes(log, File.ReadAllBytes(log)[..20]); break;
            default: File.WriteAllBytes(log, new byte[40 + (3 * 8)]); break;
        }

        using DaemonProcess again = DaemonProcess.Start(directory.Path);
        using RespClient reader = again.Connect();
        Assert.Equal(0L, reader.Call("EXISTS", "lost"));
        Assert.Equal(new object?[] { 1L, 1L }, reader.Call("BF.MEXISTS", "kept", "a", "b"));
        Assert.False(Directory.Exists(lost), "the dropped filter's directory is removed");
        // Written before the daemon listened; its standard output reaches the test asynchronously.
        Poll.Until(() => again.Output.Contains("UnwrittenFilterDropped", StringComparison.Ordinal), "the warning");
        Assert.Equal("OK", reader.Call("BF.RESERVE", "lost", "0.01", "1000"));
    }

    [Fact]
    public void A_log_header_with_non_zero_bytes_that_fails_its_checksum_stops_the_start()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.MADD", "damaged", "a", "b");
            Assert.Equal(0, daemon.Stop());
        }

        string log = Path.Combine(FilterDirectory(directory.Path, "damaged"), "digest.log");
        byte[] bytes = File.ReadAllBytes(log);
        bytes[20] ^= 0x01;
        File.WriteAllBytes(log, bytes);

        (int exitCode, string output) = DaemonProcess.RunToExit(directory.Path, Path.Combine(directory.Path, "eventfilterd.sock"));
        Assert.Equal(5, exitCode);
        Assert.Contains("eventfilterd: cannot open the filters:", output, StringComparison.Ordinal);
        Assert.Contains("fails its checksum", output, StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", output, StringComparison.Ordinal); // one line, no stack trace
        Assert.True(File.Exists(log), "a damaged log is left for the operator, not removed");
    }

    [Theory]
    [InlineData("periodic")]
    [InlineData("always")]
    public void Creates_and_drops_survive_sigkill_before_any_sync_tick(string logSync)
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--log-sync", logSync, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.RESERVE", "made", "0.001", "500", "EXPANSION", "4");
            client.Call("BF.RESERVE", "dropped", "0.01", "100");
            client.Call("BF.ADD", "dropped", "x");
            Assert.Equal(1L, client.Call("DEL", "dropped"));
            daemon.Kill();
        }

        // With periodic, the dropped filter's item was held (no files were made for it), so no directory was renamed.
        Assert.Equal(logSync == "always" ? 1 : 0, Directory.GetDirectories(Path.Combine(directory.Path, "filters"), "*.deleted").Length);
        using DaemonProcess again = DaemonProcess.Start(directory.Path, "--log-sync", logSync);
        using RespClient reader = again.Connect();
        Assert.Equal(new object?[] { 500L }, reader.Call("BF.INFO", "made", "CAPACITY"));
        Assert.Equal(new object?[] { 4L }, reader.Call("BF.INFO", "made", "EXPANSION"));
        Assert.Equal(0L, reader.Call("EXISTS", "dropped"));
        // With periodic, the filter made without an add has no files: its create record, carried over, is its durable form.
        string[] expected = logSync == "always" ? [FilterDirectory(directory.Path, "made")] : [];
        Assert.Equal(expected, Directory.GetDirectories(Path.Combine(directory.Path, "filters")));
        if (logSync == "periodic")
        {
            // Written before the daemon listened; its standard output reaches the test asynchronously.
            Poll.Until(() => again.Output.Contains("[114 ControlLogReplayed] Replayed 4 control-log records from before the stop: 1 filters without files yet, 0 directories", StringComparison.Ordinal), "the replay's log line");
        }
    }

    [Fact]
    public void A_name_dropped_and_made_again_before_a_tick_keeps_each_incarnation_apart()
    {
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick);
        using RespClient client = daemon.Connect();
        for (int i = 0; i < 3; i++)
        {
            Assert.Equal("OK", client.Call("BF.RESERVE", "again", "0.01", "100"));
            Assert.Equal(1L, client.Call("BF.ADD", "again", $"item{i}"));
            Assert.Equal(0L, client.Call("BF.EXISTS", "again", $"item{i - 1}"));
            Assert.Equal(1L, client.Call("DEL", "again"));
        }

        // Each incarnation held its item until a tick, so none got files: the drops renamed nothing.
        Assert.Empty(Directory.GetDirectories(Path.Combine(directory.Path, "filters")));
    }

    [Fact]
    public void A_new_filter_has_no_file_until_its_first_add_and_a_dropped_ones_files_go_at_the_next_tick()
    {
        using var directory = new TempDirectory();
        string filters = Path.Combine(directory.Path, "filters");
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.RESERVE", "lazy", "0.01", "1000");
            string filter = FilterDirectory(directory.Path, "lazy");
            Assert.False(Directory.Exists(filter), "a create is a control-log record until the first add or the tick");
            Assert.Equal(new object?[] { "Capacity", 1000L, "Size", 1600L, "Number of filters", 1L, "Number of items inserted", 0L, "Expansion rate", 2L }, client.Call("BF.INFO", "lazy"));
            Assert.Equal(0L, client.Call("BF.EXISTS", "lazy", "a"));

            Assert.Equal(1L, client.Call("BF.ADD", "lazy", "a"));
            Assert.False(Directory.Exists(filter), "the first items are held, their digests in the control log, until the tick");
            Assert.Equal(1L, client.Call("BF.EXISTS", "lazy", "a"));
            Assert.Equal(1L, client.Call("DEL", "lazy"));
            Assert.Empty(Directory.GetDirectories(filters));
            Assert.Equal(0, daemon.Stop());
        }

        using (DaemonProcess ticking = DaemonProcess.Start(directory.Path, "--sync-interval-ms", "10"))
        {
            using RespClient again = ticking.Connect();
            Assert.Empty(Directory.GetDirectories(filters)); // the clean stop removed the dropped filter's files
            again.Call("BF.RESERVE", "unused", "0.001", "5000");
            again.Call("BF.ADD", "used", "a");
            Assert.Equal(1L, again.Call("DEL", "used"));
            // A tick removes the dropped filter's files; the unused one gets none: its create record is carried over.
            Poll.Until(() => Directory.GetDirectories(filters).Length == 0, "a tick to remove the dropped filter's files");
            Assert.Equal(0, ticking.Stop());
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path);
        using RespClient reader = restarted.Connect();
        Assert.Equal(new object?[] { 5000L }, reader.Call("BF.INFO", "unused", "CAPACITY"));
        Assert.Equal(0L, reader.Call("EXISTS", "used"));
    }

    private static string FilterDirectory(string dataDirectory, string key) =>
        Path.Combine(dataDirectory, "filters", "k" + Convert.ToHexStringLower(System.Text.Encoding.UTF8.GetBytes(key)));
}
