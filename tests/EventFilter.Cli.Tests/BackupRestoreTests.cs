using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>`eventfilter -s SOCKET backup NAME FILE` and `restore NAME FILE` against a real eventfilterd.</summary>
public sealed class BackupRestoreTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>, IDisposable
{
    private readonly TempDirectory _directory = new();

    private string Socket => fixture.Daemon.SocketPath;

    [Fact]
    public void A_backup_restored_under_another_name_holds_every_item()
    {
        string[] items = [.. Enumerable.Range(0, 2000).Select(i => $"stream-{i}")];
        Assert.Equal(0, Client(["madd", "orders", .. items]).ExitCode);
        string file = _directory.File("orders.efbackup");

        CliRun backup = Client("backup", "orders", file, "--json");
        CliRun restore = Client("restore", "orders-copy", file);

        Assert.Equal(0, backup.ExitCode);
        JsonElement json = backup.Json();
        Assert.Equal(2, json.GetProperty("chunks").GetInt32());
        Assert.Equal(new FileInfo(file).Length, json.GetProperty("bytes").GetInt64());
        long backedUp = json.GetProperty("items").GetInt64();
        Assert.InRange(backedUp, 1900, 2000); // a few items a false positive turned away were never added
        Assert.Equal(0, restore.ExitCode);
        Assert.Equal($"restored filter 'orders-copy': {backedUp:N0} items in 2 chunks from {file}", restore.Stdout.TrimEnd());
        Assert.All(Client(["mcheck", "orders-copy", .. items]).Stdout.Split('\n', StringSplitOptions.RemoveEmptyEntries), line => Assert.StartsWith("maybe", line, StringComparison.Ordinal));
        Assert.False(File.Exists(file + ".partial"));
    }

    [Fact]
    public void A_large_backup_and_restore_show_progress_in_items()
    {
        string[] items = [.. Enumerable.Range(0, 70_000).Select(i => $"big-{i}")];
        Assert.Equal(0, Client(["create", "big", "--capacity", "100000", "--error-rate", "0.1%"]).ExitCode);
        foreach (string[] batch in items.Chunk(10_000))
        {
            Assert.Equal(0, Client(["madd", "big", .. batch]).ExitCode);
        }

        string file = _directory.File("big.efbackup");
        (int backupExit, string backupProgress) = RunWithSteppingClock("backup", "big", file);
        (int restoreExit, string restoreProgress) = RunWithSteppingClock("restore", "big-copy", file);

        Assert.Equal(0, backupExit);
        Assert.Equal(0, restoreExit);
        Assert.Contains("backup big: ", backupProgress, StringComparison.Ordinal);
        Assert.Matches(@"backup big: 100\.0% \([\d,]+ items\) in \d+:\d\d:\d\d, [\d,]+ items/s", backupProgress);
        Assert.Matches(@"restore big-copy: \d+\.\d% \([\d,]+ of [\d,]+ items\)", restoreProgress);
    }

    [Fact]
    public void A_damaged_or_cut_short_file_restores_nothing_and_exits_2()
    {
        Assert.Equal(0, Client("madd", "src", "a", "b", "c").ExitCode);
        string file = _directory.File("src.efbackup");
        Assert.Equal(0, Client("backup", "src", file).ExitCode);
        byte[] whole = File.ReadAllBytes(file);
        File.WriteAllBytes(file, whole[..^12]);
        Client("restore", "from-short", file).AssertOneLineFailure("is cut short after 2 chunks: its end mark is missing");
        byte[] damaged = [.. whole];
        damaged[^20] ^= 0x40;
        File.WriteAllBytes(file, damaged);
        Client("restore", "from-damaged", file).AssertOneLineFailure("is damaged: chunk 2: it fails its checksum (damaged)");
        Client("restore", "from-nothing", _directory.File("missing")).AssertOneLineFailure("no such file");

        Assert.Equal("", Client("list", "from-*").Stdout);
    }

    [Fact]
    public void Restore_into_a_name_that_has_a_filter_and_backup_of_a_missing_one_exit_4_and_change_nothing()
    {
        Assert.Equal(0, Client("madd", "taken", "x").ExitCode);
        string file = _directory.File("taken.efbackup");
        Assert.Equal(0, Client("backup", "taken", file).ExitCode);

        Client("restore", "taken", file).AssertOneLineFailure("ERR item exists", exitCode: 4);
        Client("backup", "absent", _directory.File("absent.efbackup")).AssertOneLineFailure("eventfilterd refused BF.SCANDUMP 'absent': ERR not found", exitCode: 4);

        Assert.False(File.Exists(_directory.File("absent.efbackup")));
        Assert.False(File.Exists(_directory.File("absent.efbackup.partial")));
        Assert.Equal("maybe           x", Client("check", "taken", "x").Stdout.TrimEnd());
    }

    public void Dispose() => _directory.Dispose();

    private CliRun Client(params string[] args) => CliRun.Of(["-s", Socket, .. args]);

    /// <summary>Runs the tool on a clock that moves a second at every reading, so progress shows on a small filter.</summary>
    private (int ExitCode, string Stderr) RunWithSteppingClock(params string[] args)
    {
        using var stdout = new StringWriter();
        using var stderr = new StringWriter();
        var console = new CliConsole(stdout, stderr, ErrorIsTerminal: false, new SteppingClock());
        int exitCode = Cli.RunAsync(["-s", Socket, .. args], console).GetAwaiter().GetResult();
        return (exitCode, stderr.ToString());
    }

    private sealed class SteppingClock : TimeProvider
    {
        private long _now;

        public override long TimestampFrequency => 1;

        public override long GetTimestamp() => Interlocked.Add(ref _now, 5);
    }
}
