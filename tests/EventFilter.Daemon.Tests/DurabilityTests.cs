namespace EventFilter.Daemon.Tests;

/// <summary>
/// Every acknowledged add answers "exists" after a restart: after a clean stop, after SIGKILL under load (with
/// --log-sync always and periodic: both write the digest before the reply), after damage to a layer file or a torn log tail.
/// </summary>
public sealed class DurabilityTests
{
    [Theory]
    [InlineData("always")]
    [InlineData("periodic")]
    public void Sigkill_under_load_loses_no_acknowledged_add(string logSync)
    {
        using var directory = new TempDirectory();
        int rounds = ReliabilityScale.Pick(logSync == "always" ? 12 : 8, 100);
        var acknowledged = new List<string>();
        var answeredNew = new long[1];
        for (int round = 0; round < rounds; round++)
        {
            using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--log-sync", logSync))
            {
                // Kill at a different point each round, once the loader has that many acknowledgements.
                int killAfter = acknowledged.Count + 40 + (round * 37 % 200);
                // Two loaders add the same items: an add answered 0 because the other's add of it came first must
                // still survive, so its reply may not go out before the other's digest is written.
                using var reached = new ManualResetEventSlim();
                Thread[] loaders = [.. Enumerable.Range(0, 2).Select(_ => new Thread(() => Load(daemon, round, acknowledged, answeredNew, killAfter, reached)))];
                Array.ForEach(loaders, l => l.Start());
                Assert.True(reached.Wait(TimeSpan.FromSeconds(30)), $"the loaders did not reach {killAfter} adds:\n{daemon.Output}");
                daemon.Kill();
                Array.ForEach(loaders, l => l.Join());
            }

            using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--log-sync", logSync);
            using RespClient client = restarted.Connect();
            var answers = (object?[])client.Call(["BF.MEXISTS", "crash", .. acknowledged])!;
            int lost = answers.Count(a => !Equals(a, 1L));
            Assert.True(lost == 0, $"round {round}: {lost} of {acknowledged.Count} acknowledged adds answer 0 after SIGKILL");

            // Items answered 0 (false positives) are not counted; adds logged but not yet acknowledged may be.
            Assert.True((long)client.Call("BF.CARD", "crash")! >= answeredNew[0]);
            restarted.Kill();
        }
    }

    [Fact]
    public void Clean_restart_keeps_filters_parameters_and_items()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.RESERVE", "kept", "0.001", "5", "EXPANSION", "2");
            client.Call(["BF.MADD", "kept", .. Enumerable.Range(0, 40).Select(i => (object)$"k{i}")]);
            Assert.Equal(0, daemon.Stop());
        }

        using DaemonProcess again = DaemonProcess.Start(directory.Path);
        using RespClient reader = again.Connect();
        Assert.All((object?[])reader.Call(["BF.MEXISTS", "kept", .. Enumerable.Range(0, 40).Select(i => (object)$"k{i}")])!, a => Assert.Equal(1L, a));
        Assert.Equal(new object?[] { 4L }, reader.Call("BF.INFO", "kept", "FILTERS"));
        Assert.Equal(new object?[] { 75L }, reader.Call("BF.INFO", "kept", "CAPACITY"));
    }

    [Fact]
    public void Corrupted_layer_file_is_rebuilt_from_the_digest_log()
    {
        using var directory = new TempDirectory();
        object[] items = [.. Enumerable.Range(0, 500).Select(i => (object)$"c{i}")];
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.RESERVE", "damaged", "0.01", "1000");
            client.Call(["BF.MADD", "damaged", .. items]);
            Assert.Equal(0, daemon.Stop());
        }

        // Overwrite every data line after the header with junk: far above the 5% threshold.
        string layer = Directory.GetFiles(directory.Path, "layer-000.filter", SearchOption.AllDirectories).Single();
        byte[] bytes = File.ReadAllBytes(layer);
        new Random(14).NextBytes(bytes.AsSpan(64));
        File.WriteAllBytes(layer, bytes);

        using DaemonProcess again = DaemonProcess.Start(directory.Path);
        using RespClient reader = again.Connect();
        Assert.All((object?[])reader.Call(["BF.MEXISTS", "damaged", .. items])!, a => Assert.Equal(1L, a));
        var outside = (object?[])reader.Call(["BF.MEXISTS", "damaged", .. Enumerable.Range(0, 1000).Select(i => (object)$"other{i}")])!;
        Assert.True(outside.Count(a => Equals(a, 1L)) < 50, "a rebuilt filter, not one of all ones");
    }

    [Fact]
    public void Torn_digest_log_tail_is_dropped_on_start()
    {
        using var directory = new TempDirectory();
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.MADD", "torn", "a", "b");
            daemon.Kill();
        }

        string log = Directory.GetFiles(directory.Path, "digest.log", SearchOption.AllDirectories).Single();
        File.AppendAllText(log, "xyz");
        using DaemonProcess again = DaemonProcess.Start(directory.Path);
        using RespClient reader = again.Connect();
        Assert.Equal(2L, reader.Call("BF.CARD", "torn"));
        Assert.Equal(new object?[] { 1L, 1L }, reader.Call("BF.MEXISTS", "torn", "a", "b"));
    }

    private static void Load(DaemonProcess daemon, int round, List<string> acknowledged, long[] answeredNew, int killAfter, ManualResetEventSlim reached)
    {
        try
        {
            using RespClient client = daemon.Connect();
            for (int batch = 0; ; batch++)
            {
                string[] items = [.. Enumerable.Range(0, 16).Select(i => $"r{round}-b{batch}-{i}")];
                var answers = (object?[])client.Call(["BF.MADD", "crash", .. items])!;
                lock (acknowledged)
                {
                    answeredNew[0] += answers.Count(a => Equals(a, 1L));
                    acknowledged.AddRange(items);
                    if (acknowledged.Count >= killAfter)
                    {
                        reached.Set();
                    }
                }
            }
        }
        catch (Exception e) when (e is IOException or EndOfStreamException or System.Net.Sockets.SocketException)
        {
            // Killed: whatever was acknowledged before this is what must survive.
        }
    }
}
