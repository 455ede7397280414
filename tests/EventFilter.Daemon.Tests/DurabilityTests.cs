namespace EventFilter.Daemon.Tests;

/// <summary>
/// Every acknowledged add answers "exists" after a restart: after a clean stop, after SIGKILL under load (with
/// --log-sync always and periodic: both write the digest before the reply), after damage to a layer file or a torn log tail.
/// Under the same kills, every acknowledged create and drop holds, with its parameters (a third client churns them).
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
        var control = new ControlChurn();
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
                // And once the churn has made that many creates and drops: the kill lands among them too.
                using var churned = new ManualResetEventSlim();
                var churn = new Thread(() => control.Churn(daemon, round, 12 + (round * 5 % 17), churned));
                churn.Start();
                Assert.True(churned.Wait(TimeSpan.FromSeconds(30)), $"the churn did not reach its count:\n{daemon.Output}");
                Assert.True(reached.Wait(TimeSpan.FromSeconds(30)), $"the loaders did not reach {killAfter} adds:\n{daemon.Output}");
                daemon.Kill();
                Array.ForEach(loaders, l => l.Join());
                churn.Join();
            }

            using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--log-sync", logSync);
            using RespClient client = restarted.Connect();
            var answers = (object?[])client.Call(["BF.MEXISTS", "crash", .. acknowledged])!;
            int lost = answers.Count(a => !Equals(a, 1L));
            Assert.True(lost == 0, $"round {round}: {lost} of {acknowledged.Count} acknowledged adds answer 0 after SIGKILL");

            // Items answered 0 (false positives) are not counted; adds logged but not yet acknowledged may be.
            Assert.True((long)client.Call("BF.CARD", "crash")! >= answeredNew[0]);
            control.AssertHeld(client, round);
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
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--sync-interval-ms", "10"))
        {
            using RespClient client = daemon.Connect();
            client.Call("BF.MADD", "torn", "a", "b");
            // A new filter's first items are held until a tick gives it its log.
            Poll.Until(() => File.Exists(Path.Combine(directory.Path, "filters", "k746f726e", "layer-000.filter")), "a tick to make the filter's files");
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

    /// <summary>
    /// Creates and drops a few keys in turn (each create with a capacity of its own, every other one with an add),
    /// remembering what was acknowledged and what was in flight when the daemon died: after the restart each key must
    /// be as acknowledged, or as the in-flight command would have left it.
    /// </summary>
    private sealed class ControlChurn
    {
        private static void Expect(object expected, object? reply, string key)
        {
            if (!Equals(expected, reply))
            {
                throw new InvalidOperationException($"'{key}': expected {expected}, the daemon answered {reply}");
            }
        }

        private readonly Lock _gate = new();
        private readonly Dictionary<string, (bool Exists, long Capacity, bool Added)> _acknowledged = [];
        private readonly Dictionary<string, (bool Exists, long Capacity, bool Added)> _inFlight = [];
        // An unexpected reply, kept for the test's thread: an assertion failing on this thread would end the test host.
        private string? _failure;

        public void Churn(DaemonProcess daemon, int round, int steps, ManualResetEventSlim reached)
        {
            try
            {
                using RespClient client = daemon.Connect();
                for (int step = 0; ; step++)
                {
                    string key = $"ctl{round}-{step % 5}";
                    bool exists;
                    lock (_gate)
                    {
                        exists = _acknowledged.TryGetValue(key, out var state) && state.Exists;
                    }

                    (bool Exists, long Capacity, bool Added) next = exists ? (false, 0, false) : (true, 1000 + step, step % 2 == 0);
                    lock (_gate)
                    {
                        _inFlight[key] = next;
                    }

                    if (exists)
                    {
                        Expect(1L, client.Call("DEL", key), key);
                    }
                    else
                    {
                        Expect("OK", client.Call("BF.RESERVE", key, "0.01", next.Capacity.ToString(System.Globalization.CultureInfo.InvariantCulture)), key);
                        if (next.Added)
                        {
                            // Acknowledged as a reserve first: killed here, the filter exists, with or without the item.
                            lock (_gate)
                            {
                                _acknowledged[key] = next with { Added = false };
                            }

                            Expect(1L, client.Call("BF.ADD", key, "item"), key);
                        }
                    }

                    lock (_gate)
                    {
                        _acknowledged[key] = next;
                        _inFlight.Remove(key);
                    }

                    if (step + 1 >= steps)
                    {
                        reached.Set();
                    }
                }
            }
            catch (Exception e) when (e is IOException or EndOfStreamException or System.Net.Sockets.SocketException)
            {
                // Killed: what was acknowledged must hold; the command in flight may or may not have been applied.
            }
            catch (InvalidOperationException e)
            {
                _failure = e.Message;
                reached.Set();
            }
        }

        public void AssertHeld(RespClient client, int round)
        {
            Assert.True(_failure is null, _failure);
            foreach ((string key, var acknowledged) in _acknowledged.Where(entry => entry.Key.StartsWith($"ctl{round}-", StringComparison.Ordinal)))
            {
                bool exists = Equals(client.Call("EXISTS", key), 1L);
                long capacity = exists ? (long)((object?[])client.Call("BF.INFO", key, "CAPACITY")!)[0]! : 0;
                bool hasItem = exists && Equals(client.Call("BF.EXISTS", key, "item"), 1L);
                bool asAcknowledged = exists == acknowledged.Exists && capacity == acknowledged.Capacity && (hasItem || !acknowledged.Added);
                bool asInFlight = _inFlight.TryGetValue(key, out var flight) && exists == flight.Exists && capacity == flight.Capacity;
                Assert.True(asAcknowledged || asInFlight, $"round {round}: '{key}' is exists={exists} capacity={capacity} item={hasItem} after SIGKILL; acknowledged {acknowledged}, in flight {(_inFlight.TryGetValue(key, out var f) ? f.ToString() : "nothing")}");
            }
        }
    }
}
