using System.Net.Sockets;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// One seeded crash sequence for <see cref="CrashSequenceTests"/>: runs under load and starts, each killed at a kill
/// point, then a clean start checked against what the client was told. The model keeps, per key, whether it exists and
/// its acknowledged items; a key whose last command got no reply (the kill cut it) is uncertain and no longer checked.
/// </summary>
internal static class CrashSequence
{
    private const int MaxCommandsPerRun = 3000;

    /// <summary>Returns how many acknowledged items it checked and where each kill landed; fails naming the seed.</summary>
    public static (long Items, string Trail) Run(int seed, string sync, string[] loadPoints, string[] startPoints, Dictionary<string, int> landed)
    {
        var random = new Random(seed);
        var model = new Dictionary<string, HashSet<string>?>(StringComparer.Ordinal); // null: dropped
        var uncertain = new HashSet<string>(StringComparer.Ordinal);
        using var directory = new TempDirectory();
        string[] arguments = ["--log-sync", sync, "--sync-interval-ms", "10"];
        int kills = 3 + random.Next(2);
        string trail = "";
        try
        {
            for (int kill = 0; kill < kills; kill++)
            {
                // The first run, and now and then a later one, is under load; the others are starts killed inside.
                bool load = kill == 0 || random.Next(3) == 0;
                string point = load ? loadPoints[random.Next(loadPoints.Length)] : startPoints[random.Next(startPoints.Length)];
                // Points reached once per start are asked for once; the ones reached per filter, at one of the first few.
                int count = 1 + random.Next(load ? 3 : point is "start.opened" or "start.materialized" or "start.filter-synced" ? 3 : 1);
                string where = load
                    ? RunUnderLoad(directory.Path, arguments, point, count, random, model, uncertain)
                    : KilledStart(directory.Path, arguments, point, count);
                trail += $" {point}:{count}->{where}";
                landed[where] = landed.GetValueOrDefault(where) + 1;
            }

            return (Check(directory.Path, arguments, model, uncertain), trail);
        }
        catch (Exception e)
        {
            throw new Xunit.Sdk.XunitException($"crash sequence failed: seed {seed}, --log-sync {sync}, kills{trail}; replay with EVENTFILTERD_CRASH_SEED={seed}\n{e}");
        }
    }

    /// <summary>Commands until the daemon kills itself at the point, or a SIGKILL after the last; where the kill landed.</summary>
    private static string RunUnderLoad(string data, string[] arguments, string point, int count, Random random, Dictionary<string, HashSet<string>?> model, HashSet<string> uncertain)
    {
        using DaemonProcess daemon = DaemonProcess.Launch(RecoveryTests.KillAt(point, count), data, arguments);
        if (ListeningOrKilled(daemon) is { } early)
        {
            return early; // the start, or the first tick, reached the point before any command
        }

        bool cut = false;
        RespClient client;
        try
        {
            client = daemon.Connect();
        }
        catch (SocketException)
        {
            return KilledAt(WaitForKill(daemon)) ?? "died before the load";
        }

        using (client)
        {
            for (int command = 0; command < MaxCommandsPerRun; command++)
            {
                string key = $"k{random.Next(60)}";
                int action = random.Next(10);
                try
                {
                    Apply(client, key, action, random, model, uncertain);
                }
                catch (Exception e) when (e is IOException or SocketException or EndOfStreamException or ObjectDisposedException)
                {
                    uncertain.Add(key); // no reply: it may or may not have happened
                    cut = true;
                    break;
                }
            }
        }

        // A cut connection is the kill: wait for the exit to be seen. Otherwise the point was not reached.
        if (daemon.WaitForExit(cut ? TimeSpan.FromSeconds(30) : TimeSpan.Zero) is null)
        {
            daemon.Kill();
            return "SIGKILL under load";
        }

        return KilledAt(daemon.Output) ?? "died under load";
    }

    /// <summary>One command; the model learns it once its reply came.</summary>
    private static void Apply(RespClient client, string key, int action, Random random, Dictionary<string, HashSet<string>?> model, HashSet<string> uncertain)
    {
        if (action < 2)
        {
            Assert.IsType<long>(client.Call("DEL", key));
            model[key] = null;
            uncertain.Remove(key); // whatever it was, it is gone now
        }
        else if (action < 3 && model.GetValueOrDefault(key) is null)
        {
            if (Equals(client.Call("BF.RESERVE", key, "0.01", "1000"), "OK"))
            {
                model[key] = [];
            }
        }
        else
        {
            string[] items = [.. Enumerable.Range(0, 1 + random.Next(4)).Select(_ => $"i{random.Next(100_000)}")];
            object? reply = client.Call(["BF.MADD", key, .. items]);
            Assert.True(reply is object?[] answers && answers.All(answer => answer is long), $"BF.MADD {key}: {reply}");
            if (model.GetValueOrDefault(key) is not { } acknowledged)
            {
                model[key] = acknowledged = []; // BF.MADD made it
            }

            acknowledged.UnionWith(items);
        }
    }

    /// <summary>A start that kills itself at the point, or is killed once it listens if it never gets there.</summary>
    private static string KilledStart(string data, string[] arguments, string point, int count)
    {
        using DaemonProcess start = DaemonProcess.Launch(RecoveryTests.KillAt(point, count), data, arguments);
        if (ListeningOrKilled(start) is { } killed)
        {
            return killed;
        }

        start.Kill();
        return "SIGKILL after a start";
    }

    /// <summary>Null once the daemon listens; where it killed itself if it did first. Any other exit fails the sequence.</summary>
    private static string? ListeningOrKilled(DaemonProcess daemon)
    {
        string outcome = Poll.Until(() =>
        {
            if (daemon.WaitForExit(TimeSpan.Zero) is { } exit)
            {
                return exit == 137 ? KilledAt(daemon.Output) ?? "SIGKILL" : throw new InvalidOperationException($"the daemon exited {exit}:\n{daemon.Output}");
            }

            return daemon.Output.Contains("eventfilterd listening", StringComparison.Ordinal) ? "listening" : null;
        }, "the daemon to die at its kill point or to listen");
        return outcome == "listening" ? null : outcome;
    }

    /// <summary>The output of a daemon expected to die at its kill point, once it has.</summary>
    private static string WaitForKill(DaemonProcess daemon)
    {
        int? exit = daemon.WaitForExit(TimeSpan.FromSeconds(30));
        return exit == 137 ? daemon.Output : throw new InvalidOperationException($"the daemon exited {exit?.ToString(System.Globalization.CultureInfo.InvariantCulture) ?? "not at all"}:\n{daemon.Output}");
    }

    /// <summary>A clean start; every certain key as the model says. Returns the items checked.</summary>
    private static long Check(string data, string[] arguments, Dictionary<string, HashSet<string>?> model, HashSet<string> uncertain)
    {
        using DaemonProcess daemon = DaemonProcess.Start(data, arguments);
        using RespClient client = daemon.Connect();
        long items = 0;
        foreach ((string key, HashSet<string>? added) in model.Where(pair => !uncertain.Contains(pair.Key)))
        {
            if (added is null)
            {
                Assert.True(Equals(client.Call("EXISTS", key), 0L), $"'{key}' was dropped, and exists");
                continue;
            }

            Assert.True(Equals(client.Call("EXISTS", key), 1L), $"'{key}' was created, and is gone");
            if (added.Count > 0)
            {
                object?[] answers = (object?[])client.Call(["BF.MEXISTS", key, .. added])!;
                Assert.True(answers.All(answer => Equals(answer, 1L)), $"'{key}' lost acknowledged items");
                items += added.Count;
            }
        }

        Assert.Equal(0, daemon.Stop());
        return items;
    }

    private static string? KilledAt(string output)
    {
        const string Marker = "eventfilterd: killed at ";
        int at = output.LastIndexOf(Marker, StringComparison.Ordinal);
        return at < 0 ? null : output[(at + Marker.Length)..].Split('\n')[0].Trim();
    }
}
