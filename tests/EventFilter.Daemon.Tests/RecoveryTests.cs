using EventFilter.Daemon.Filters;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// A start after a crash, itself cut by a crash (docs/daemon-design.md, "Control-log recovery"): each kill lands at one of the
/// daemon's own kill points (EVENTFILTERD_KILL_AT), so where it lands is exact, not timed.
/// </summary>
public sealed class RecoveryTests
{
    private const string NoTick = "3600000";
    private const int Filters = 12;

    [Fact]
    public void A_start_killed_while_it_gives_filters_their_files_after_a_tick_killed_the_same_way_loses_nothing()
    {
        // Both files of the control log hold records at the second kill: the tick's carried creates in one, the
        // interval's creates and held items in the other. A start that switched to that other file emptied it before
        // the filters whose items it held had their files.
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.StartWithEnvironment(KillAt("tick.materialized", 4), directory.Path, "--sync-interval-ms", NoTick))
        {
            using RespClient client = daemon.Connect();
            Assert.Equal("OK", client.Call("BF.RESERVE", "empty", "0.01", "100"));
            for (int i = 0; i < Filters; i++)
            {
                Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.MADD", $"f{i}", $"a{i}", $"b{i}"));
            }

            daemon.Terminate(); // the stop's tick reaches the kill point
            Assert.Equal(137, daemon.WaitForExit(TimeSpan.FromSeconds(30)));
        }

        KilledStart(directory.Path, KillAt("start.materialized", 3));
        KilledStart(directory.Path, KillAt("start.begun", 1));
        KilledStart(directory.Path, KillAt("start.synced", 1));

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick);
        using RespClient reader = restarted.Connect();
        Assert.Equal(1L, reader.Call("EXISTS", "empty"));
        for (int i = 0; i < Filters; i++)
        {
            Assert.Equal(new object?[] { 1L, 1L }, reader.Call("BF.MEXISTS", $"f{i}", $"a{i}", $"b{i}"));
        }

        Assert.Equal((long)Filters + 1, reader.Call("DBSIZE"));
    }

    [Fact]
    public void After_a_sigkill_the_layers_caught_up_from_their_logs_are_one_information_line()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick, "--log-sync", "always"))
        {
            using RespClient client = daemon.Connect();
            for (int i = 0; i < 30; i++)
            {
                Assert.Equal(1L, client.Call("BF.ADD", $"f{i}", "x")); // a layer file, no checkpoint yet
            }

            daemon.Kill();
        }

        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--sync-interval-ms", NoTick);
        using RespClient reader = restarted.Connect();
        Assert.Equal(1L, reader.Call("BF.EXISTS", "f29", "x"));
        // The daemon's output is read on another thread: wait for the line itself, then check nothing per layer came before it.
        Poll.Until(() => restarted.Output.Contains("CheckpointsIgnoredAtStart] 30 layers caught up from the start of their digest logs", StringComparison.Ordinal),
            () => "the one line for the 30 layers caught up:\n" + restarted.Output);
        Assert.DoesNotContain("CheckpointIgnored]", restarted.Output, StringComparison.Ordinal);
    }

    [Fact]
    public void Restarts_with_nothing_new_do_not_grow_the_control_log()
    {
        // A start carries pending creates only out of a file it is about to empty, so a restart loop adds no record.
        using var directory = new TempDirectory();
        using (FilterStore store = ControlLogTests.Open(directory.Path))
        {
            Assert.NotNull(store.Create("pending"u8, new EventFilter.Daemon.Formats.FilterParameters(100, 0.01, 2, NonScaling: false)));
        }

        for (int restart = 0; restart < 3; restart++)
        {
            using FilterStore store = ControlLogTests.Open(directory.Path);
            Assert.NotNull(store.Find("pending"u8));
        }

        Assert.Equal(["create pending"], ControlLogTests.Describe(ControlLogTests.ControlRecords(directory.Path)));
    }

    /// <summary>A start that kills itself at the given point before it listens.</summary>
    internal static void KilledStart(string dataDirectory, IReadOnlyDictionary<string, string> killAt, params string[] arguments)
    {
        using DaemonProcess start = DaemonProcess.Launch(killAt, dataDirectory, ["--sync-interval-ms", NoTick, .. arguments]);
        Assert.True(start.WaitForExit(TimeSpan.FromSeconds(30)) == 137, $"the start should have been killed at {killAt.Values.Single()}:\n{start.Output}");
    }

    internal static Dictionary<string, string> KillAt(string point, int count) => new() { ["EVENTFILTERD_KILL_AT"] = $"{point}:{count}" };
}
