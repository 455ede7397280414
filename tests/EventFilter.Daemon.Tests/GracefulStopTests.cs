namespace EventFilter.Daemon.Tests;

/// <summary>
/// SIGTERM under load: the daemon stops within the unit's TimeoutStopSec (60 s, deploy/eventfilterd.service), exits 0,
/// and every add it acknowledged answers "maybe" after a restart, with --log-sync periodic too (the clean stop fsyncs
/// and checkpoints what the sync tick had not).
/// </summary>
public sealed class GracefulStopTests
{
    private static readonly TimeSpan StopTimeout = TimeSpan.FromSeconds(60);

    [Theory]
    [InlineData("periodic")]
    [InlineData("always")]
    public void Sigterm_under_load_stops_cleanly_and_keeps_every_acknowledged_add(string logSync)
    {
        using var directory = new TempDirectory();
        var acknowledged = new List<string>[3];
        using var busy = new CountdownEvent(acknowledged.Length);
        using (DaemonProcess daemon = DaemonProcess.Start(directory.Path, "--log-sync", logSync))
        {
            Thread[] loaders = [.. Enumerable.Range(0, acknowledged.Length).Select(i => new Thread(() => Load(daemon, i, acknowledged[i] = [], busy)))];
            Array.ForEach(loaders, l => l.Start());

            // Stop while every loader is mid-stream: each has had some batches acknowledged and keeps sending.
            Assert.True(busy.Wait(TimeSpan.FromMinutes(1)), $"the loaders did not get going:\n{daemon.Output}");
            daemon.Terminate();
            Assert.Equal(0, daemon.WaitForExit(StopTimeout));
            Array.ForEach(loaders, l => l.Join());
        }

        string[] all = [.. acknowledged.SelectMany(a => a)];
        Assert.True(all.Length >= 3 * 200, $"only {all.Length} adds were acknowledged");
        using DaemonProcess restarted = DaemonProcess.Start(directory.Path, "--log-sync", logSync);
        using RespClient client = restarted.Connect();
        var answers = (object?[])client.Call(["BF.MEXISTS", "stop", .. all])!;
        Assert.Equal(0, answers.Count(a => !Equals(a, 1L)));
    }

    /// <summary>Pipelined batches of 50 until the daemon goes away; records the items of each batch whose replies all came back.</summary>
    private static void Load(DaemonProcess daemon, int loader, List<string> acknowledged, CountdownEvent busy)
    {
        using RespClient client = daemon.Connect();
        try
        {
            for (int batch = 0; ; batch++)
            {
                string[] items = [.. Enumerable.Range(0, 50).Select(i => $"l{loader}-b{batch}-i{i}")];
                object? reply = client.Call(["BF.MADD", "stop", .. items]);
                if (reply is not object?[] answers || answers.Length != items.Length)
                {
                    return;
                }

                acknowledged.AddRange(items);
                if (batch == 4)
                {
                    busy.Signal();
                }
            }
        }
        catch (Exception e) when (e is IOException or EndOfStreamException or System.Net.Sockets.SocketException)
        {
            // The daemon closed the connection as it stopped: this batch was not acknowledged.
        }
    }
}
