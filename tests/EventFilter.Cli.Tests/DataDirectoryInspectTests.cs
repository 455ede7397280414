using System.Security.Cryptography;
using System.Text.Json;

namespace EventFilter.Cli.Tests;

/// <summary>
/// `inspect DIR` on a data directory a real eventfilterd wrote: names, digest logs (a torn tail included), layers,
/// and how far catch-up would go, which the restarted daemon then confirms. Read-only.
/// </summary>
public sealed class DataDirectoryInspectTests
{
    /// <summary>So long that the daemon never checkpoints on its own: after SIGKILL, catch-up must redo every layer.</summary>
    private const string NoPeriodicCheckpoint = "3600000";

    [Fact]
    public void A_long_keys_filter_is_listed_by_its_exact_key_from_its_key_file()
    {
        using var directory = new TempDirectory();
        string key = "orders:" + new string('x', 300);
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            Assert.Equal(0, Client(daemon, "add", key, "x").ExitCode);
        }

        JsonElement filter = CliRun.Of("inspect", directory.Path, "--json").Json().GetProperty("filters").EnumerateArray().Single();
        Assert.Equal(key, filter.GetProperty("name").GetString());
        Assert.Equal(1, filter.GetProperty("digestLog").GetProperty("items").GetInt64());
    }

    [Fact]
    public void After_sigkill_it_reports_every_filter_the_torn_tail_and_a_full_catch_up()
    {
        using var directory = new TempDirectory();
        long added;
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoPeriodicCheckpoint))
        {
            Assert.Equal(0, Client(daemon, "create", "users", "--capacity", "100").ExitCode);
            added = AddItems(daemon, "users", 250);
            Assert.Equal(0, Client(daemon, "add", "second", "x").ExitCode);
            daemon.Kill();
        }

        string log = Path.Combine(directory.Path, "filters", "k7573657273", "digest.log");
        File.AppendAllText(log, "xyz");

        CliRun run = CliRun.Of("inspect", directory.Path, "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement json = run.Json();
        Assert.False(json.GetProperty("daemonListening").GetBoolean());
        // "second" holds its one item until a tick: the control log has it, and no directory does.
        Assert.Equal(1, json.GetProperty("filterCount").GetInt32());
        Assert.Contains(json.GetProperty("controlLog").GetProperty("changes").EnumerateArray(), change => change.GetString()!.StartsWith("create second", StringComparison.Ordinal) && change.GetString()!.EndsWith(", 1 items", StringComparison.Ordinal));
        JsonElement users = json.GetProperty("filters").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "users");
        Assert.Equal("7573657273", users.GetProperty("hex").GetString());
        JsonElement digestLog = users.GetProperty("digestLog");
        Assert.Equal("torn-tail", digestLog.GetProperty("status").GetString());
        Assert.Equal(3, digestLog.GetProperty("tornBytes").GetInt64());
        Assert.Equal(added, digestLog.GetProperty("items").GetInt64());
        Assert.Equal(40 + (8 * added), digestLog.GetProperty("endPosition").GetInt64());
        Assert.Equal(100, digestLog.GetProperty("parameters").GetProperty("capacity").GetInt64());
        Assert.Equal(2, digestLog.GetProperty("parameters").GetProperty("expansion").GetInt32());

        JsonElement[] layers = [.. users.GetProperty("layers").EnumerateArray()];
        Assert.Equal(2, layers.Length);
        Assert.Equal([100, added - 100], layers.Select(l => l.GetProperty("itemsInLog").GetInt64()));
        Assert.Equal([0, 100], layers.Select(l => l.GetProperty("firstItem").GetInt64()));
        Assert.Equal([100, 200], layers.Select(l => l.GetProperty("capacity").GetInt64()));
        Assert.All(layers, l => Assert.Equal("ready", l.GetProperty("status").GetString()));
        // Layer 0 was made with the items the new filter held, caught up and checkpointed then; layer 1 has everything to catch up.
        Assert.Equal([0, added - 100], layers.Select(l => l.GetProperty("catchUpItems").GetInt64()));
        Assert.Contains("torn tail of 3 bytes", CliRun.Of("inspect", directory.Path).Stdout, StringComparison.Ordinal);

        // What the report predicts is what the daemon does: the torn tail dropped, every item caught up.
        using DaemonProcess restarted = DaemonProcess.Start(directory.Path);
        Assert.Equal(added, Client(restarted, "info", "users", "--json").Json().GetProperty("items").GetInt64());
        Assert.Equal(DigestLength(added), new FileInfo(log).Length);
    }

    [Fact]
    public void After_a_clean_stop_nothing_is_left_to_catch_up_and_a_running_daemon_is_noticed()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoPeriodicCheckpoint))
        {
            AddItems(daemon, "clean", 150);
            Assert.True(CliRun.Of("inspect", directory.Path, "--json").Json().GetProperty("daemonListening").GetBoolean());
            Assert.Equal(0, daemon.Stop());
        }

        JsonElement json = CliRun.Of("inspect", directory.Path, "--json").Json();

        Assert.False(json.GetProperty("daemonListening").GetBoolean());
        JsonElement filter = json.GetProperty("filters")[0];
        long end = filter.GetProperty("digestLog").GetProperty("endPosition").GetInt64();
        Assert.All(filter.GetProperty("layers").EnumerateArray(), layer =>
        {
            Assert.Equal(0, layer.GetProperty("catchUpItems").GetInt64());
            Assert.Equal(end, layer.GetProperty("catchUpFrom").GetInt64());
        });
    }

    [Fact]
    public void A_missing_layer_file_is_reported_as_rebuilt_from_the_log()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            AddItems(daemon, "gone", 20);
            Assert.Equal(0, daemon.Stop());
        }

        string filterDirectory = Path.Combine(directory.Path, "filters", "k676f6e65");
        foreach (string file in Directory.GetFiles(filterDirectory, "layer-000.filter*"))
        {
            File.Delete(file);
        }

        JsonElement layer = CliRun.Of("inspect", directory.Path, "--json").Json().GetProperty("filters")[0].GetProperty("layers")[0];

        Assert.Equal("missing", layer.GetProperty("status").GetString());
        Assert.Equal(layer.GetProperty("itemsInLog").GetInt64(), layer.GetProperty("catchUpItems").GetInt64());
    }

    [Fact]
    public void A_digest_log_whose_header_fails_its_checksum_is_an_error_but_the_rest_is_reported()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            AddItems(daemon, "bad", 5);
            AddItems(daemon, "good", 5);
            Assert.Equal(0, daemon.Stop());
        }

        string log = Path.Combine(directory.Path, "filters", "k626164", "digest.log");
        byte[] bytes = File.ReadAllBytes(log);
        bytes[20] ^= 0xFF;
        File.WriteAllBytes(log, bytes);
        Directory.CreateDirectory(Path.Combine(directory.Path, "filters", "k6e6577.tmp"));

        CliRun run = CliRun.Of("inspect", directory.Path, "--json");

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("filter 'bad'", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
        Assert.DoesNotContain("   at ", run.Stderr, StringComparison.Ordinal);
        JsonElement[] filters = [.. run.Json().GetProperty("filters").EnumerateArray()];
        Assert.Equal("invalid", filters[0].GetProperty("digestLog").GetProperty("status").GetString());
        Assert.Equal(0, filters[0].GetProperty("layers").GetArrayLength());
        Assert.Equal("valid", filters[1].GetProperty("digestLog").GetProperty("status").GetString());
        Assert.Equal(["k6e6577.tmp"], run.Json().GetProperty("leftovers").EnumerateArray().Select(l => l.GetString()!));
    }

    [Fact]
    public void A_digest_log_header_of_zeros_is_an_unwritten_create_the_next_start_drops_not_an_error()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            Assert.Equal(0, Client(daemon, "create", "fresh", "--capacity", "100").ExitCode);
            Assert.Equal(0, Client(daemon, "add", "fresh", "x").ExitCode); // the first add makes a filter's files
            AddItems(daemon, "good", 5);
            Assert.Equal(0, daemon.Stop());
        }

        // What power loss leaves of a create whose header was never synced: the block allocated, never written.
        File.WriteAllBytes(Path.Combine(directory.Path, "filters", "k6672657368", "digest.log"), new byte[40]);

        CliRun run = CliRun.Of("inspect", directory.Path, "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement fresh = run.Json().GetProperty("filters").EnumerateArray().Single(f => f.GetProperty("name").GetString() == "fresh");
        Assert.Equal("unwritten", fresh.GetProperty("digestLog").GetProperty("status").GetString());
        Assert.Contains("drops this filter at its next start", fresh.GetProperty("digestLog").GetProperty("problem").GetString(), StringComparison.Ordinal);
        Assert.Equal(0, fresh.GetProperty("layers").GetArrayLength());
    }

    [Fact]
    public void After_sigkill_the_creates_and_drops_of_the_interval_are_reported_from_the_control_log_as_the_start_applies_them()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoPeriodicCheckpoint))
        {
            Assert.Equal(0, Client(daemon, "create", "reserved", "--capacity", "500", "--error-rate", "0.1%").ExitCode);
            AddItems(daemon, "dropped", 3);
            Assert.Equal(0, Client(daemon, "drop", "dropped").ExitCode);
            daemon.Kill();
        }

        CliRun run = CliRun.Of("inspect", directory.Path, "--json");

        Assert.Equal(0, run.ExitCode);
        JsonElement control = run.Json().GetProperty("controlLog");
        Assert.Equal("pending", control.GetProperty("status").GetString());
        Assert.Equal(4, control.GetProperty("records").GetInt32()); // two creates (one by the add), the add's item, then the drop
        string[] changes = [.. control.GetProperty("changes").EnumerateArray().Select(c => c.GetString()!)];
        Assert.Equal(2, changes.Length);
        Assert.StartsWith("create reserved (capacity 500 at error rate 0.1", changes[0], StringComparison.Ordinal);
        Assert.Equal("drop dropped", changes[1]);
        Assert.Equal(0, run.Json().GetProperty("filterCount").GetInt32()); // the reserved filter has no directory yet
        Assert.Contains("create reserved", CliRun.Of("inspect", directory.Path).Stdout, StringComparison.Ordinal);

        // No tick in the restarted daemon either: a start replays the records and never switches files, so they stand
        // until the next tick empties them (docs/daemon-design.md, "Control-log recovery").
        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoPeriodicCheckpoint);
        Assert.Equal(500, Client(restarted, "info", "reserved", "--json").Json().GetProperty("capacity").GetInt64());
        Assert.NotEqual(0, Client(restarted, "info", "dropped", "--json").ExitCode);

        // Applied: the drop is gone from filters/, and the reserved filter, still without files, is carried in the control log.
        JsonElement after = CliRun.Of("inspect", directory.Path, "--json").Json();
        Assert.Equal(0, after.GetProperty("filterCount").GetInt32());
        Assert.Contains(after.GetProperty("controlLog").GetProperty("changes").EnumerateArray(), c => c.GetString()!.StartsWith("create reserved", StringComparison.Ordinal));
    }

    [Fact]
    public void A_control_log_header_that_fails_its_checksum_is_an_error()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            AddItems(daemon, "good", 5);
            Assert.Equal(0, daemon.Stop());
        }

        string control = Path.Combine(directory.Path, "control-0.log");
        byte[] bytes = File.ReadAllBytes(control);
        bytes[3] ^= 0x01;
        File.WriteAllBytes(control, bytes);

        CliRun run = CliRun.Of("inspect", directory.Path, "--json");

        Assert.Equal(2, run.ExitCode);
        Assert.Contains("control-0.log", Assert.Single(run.ErrorLines), StringComparison.Ordinal);
        Assert.Equal("invalid", run.Json().GetProperty("controlLog").GetProperty("status").GetString());
        Assert.Equal("valid", run.Json().GetProperty("filters")[0].GetProperty("digestLog").GetProperty("status").GetString());
    }

    [Fact]
    public void Inspect_changes_no_file_of_the_data_directory()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoPeriodicCheckpoint))
        {
            AddItems(daemon, "kept", 120);
            daemon.Kill();
        }

        string before = Fingerprint(directory.Path);

        CliRun.Of("inspect", directory.Path);
        CliRun.Of("inspect", directory.Path, "--json");

        Assert.Equal(before, Fingerprint(directory.Path));
    }

    [Fact]
    public void A_directory_that_is_not_a_data_directory_fails_in_one_line()
    {
        using var directory = new TempDirectory();

        CliRun.Of("inspect", directory.Path).AssertOneLineFailure("not an eventfilterd data directory");
    }

    private static CliRun Client(DaemonProcess daemon, params string[] args) => CliRun.Of(["-s", daemon.SocketPath, .. args]);

    /// <summary>Adds item-0 ... item-(count-1); returns how many were new (logged).</summary>
    private static long AddItems(DaemonProcess daemon, string name, int count)
    {
        CliRun run = Client(daemon, ["madd", name, .. Enumerable.Range(0, count).Select(i => $"item-{i}"), "--json"]);
        Assert.Equal(0, run.ExitCode);
        return run.Json().GetProperty("results").EnumerateArray().Count(r => r.GetProperty("added").GetBoolean());
    }

    private static long DigestLength(long items) => 40 + (8 * items);

    private static string Fingerprint(string root) => string.Join('\n', Directory.GetFiles(root, "*", SearchOption.AllDirectories)
        .Where(path => !path.EndsWith(".sock", StringComparison.Ordinal))
        .Order(StringComparer.Ordinal)
        .Select(path => $"{path} {Convert.ToHexString(SHA256.HashData(File.ReadAllBytes(path)))} {File.GetLastWriteTimeUtc(path).Ticks}"));
}
