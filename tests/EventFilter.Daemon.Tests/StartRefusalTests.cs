namespace EventFilter.Daemon.Tests;

/// <summary>
/// A start that cannot finish changes nothing (docs/daemon.md, "Starting and stopping"), whatever stops it: here a
/// disk without room for what the start makes, and a damaged digest log header, each with a control log holding the
/// records of a crash that the start would otherwise have applied. The directory is compared file by file.
/// </summary>
public sealed class StartRefusalTests : IDisposable
{
    private const string NoTick = "3600000";
    private readonly TempDirectory _directory = new();

    public void Dispose() => _directory.Dispose();

    [RootFact]
    public void A_start_without_disk_room_is_refused_changing_nothing_and_starts_once_space_returns()
    {
        using SmallTmpfs disk = SmallTmpfs.Mount(Path.Combine(_directory.Path, "disk"), kilobytes: 8192);
        string data = Path.Combine(disk.Path, "data");
        Crash(data);
        string ballast = Path.Combine(disk.Path, "ballast");
        File.WriteAllBytes(ballast, new byte[new DriveInfo(disk.Path).AvailableFreeSpace - (256 * 1024)]);

        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);
        (int exit, string output) = DaemonProcess.RunToExit(data, Path.Combine(data, "eventfilterd.sock"), "--sync-interval-ms", NoTick);
        Assert.True(exit == 5, $"exit {exit}:\n{output}");
        Assert.Contains("bytes free", output, StringComparison.Ordinal);
        Assert.Contains("Nothing was changed", output, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));

        File.Delete(ballast);
        AssertAllThere(data);
    }

    [Fact]
    public void A_start_that_finds_a_damaged_digest_log_header_changes_nothing()
    {
        string data = Path.Combine(_directory.Path, "data");
        Crash(data);
        string damaged = Path.Combine(data, "filters", "k" + Convert.ToHexStringLower("made"u8), "digest.log");
        byte[] log = File.ReadAllBytes(damaged);
        log[10] ^= 0xFF;
        File.WriteAllBytes(damaged, log);

        Dictionary<string, string> before = DescriptorLimitStartTests.Snapshot(data);
        (int exit, string output) = DaemonProcess.RunToExit(data, Path.Combine(data, "eventfilterd.sock"), "--sync-interval-ms", NoTick);
        Assert.True(exit == 5, $"exit {exit}:\n{output}");
        Assert.Contains(damaged, output, StringComparison.Ordinal);
        Assert.Equal(before, DescriptorLimitStartTests.Snapshot(data));
    }

    /// <summary>A filter with files, then 20 with items held in the control log only, and a SIGKILL.</summary>
    private static void Crash(string data)
    {
        using (DaemonProcess daemon = DaemonProcess.Start(data, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            Assert.Equal(1L, client.Call("BF.ADD", "made", "x"));
            Assert.Equal(0, daemon.Stop());
        }

        using (DaemonProcess daemon = DaemonProcess.Start(data, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            for (int i = 0; i < 20; i++)
            {
                Assert.Equal(1L, client.Call("BF.ADD", $"held{i}", "x"));
            }

            daemon.Kill();
        }
    }

    private static void AssertAllThere(string data)
    {
        using DaemonProcess daemon = DaemonProcess.Start(data, "--sync-interval-ms", NoTick);
        using RespClient client = daemon.Connect();
        Assert.Equal(1L, client.Call("BF.EXISTS", "made", "x"));
        for (int i = 0; i < 20; i++)
        {
            Assert.Equal(1L, client.Call("BF.EXISTS", $"held{i}", "x"));
        }
    }
}
