using System.Net.Sockets;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Accepts clients on one listening socket until the stop, and never stops listening on its own: a failed accept (out of
/// descriptors, EMFILE or ENFILE, is the one that happens) is logged once, counted in eventfilterd.errors (which
/// degrades health), and retried after a pause that doubles up to <see cref="MaxPause"/>, while the pending connections
/// wait in the backlog; the first accept that succeeds again is logged too. See docs/daemon-design.md, "Connections".
/// </summary>
internal sealed class AcceptLoop(Socket listener, DaemonMetrics metrics, TimeProvider time, ILogger logger)
{
    /// <summary>The first pause after a failed accept: without one, a listener whose backlog is readable would spin.</summary>
    public static readonly TimeSpan MinPause = TimeSpan.FromMilliseconds(50);

    public static readonly TimeSpan MaxPause = TimeSpan.FromSeconds(1);

    /// <summary>Runs until <paramref name="stopping"/> (which also closes the socket); hands each client to <paramref name="serve"/>.</summary>
    public async Task Run(Action<Socket> serve, CancellationToken stopping)
    {
        TimeSpan pause = MinPause;
        int failures = 0;
        while (true)
        {
            Socket client;
            try
            {
                client = await listener.AcceptAsync(stopping);
            }
            catch (Exception e) when (stopping.IsCancellationRequested && e is SocketException or ObjectDisposedException or OperationCanceledException)
            {
                return;
            }
            catch (SocketException e)
            {
                metrics.Error(DaemonMetrics.Operation.Accept);
                if (failures++ == 0)
                {
                    Log.AcceptFailed(logger, e.Message, (long)pause.TotalMilliseconds);
                }

                if (!await Paused(pause, stopping))
                {
                    return;
                }

                pause = TimeSpan.FromTicks(Math.Min(pause.Ticks * 2, MaxPause.Ticks));
                continue;
            }

            if (failures > 0)
            {
                Log.AcceptResumed(logger, failures);
                (failures, pause) = (0, MinPause);
            }

            serve(client);
        }
    }

    /// <summary>Waits <paramref name="pause"/>; false when the stop came first.</summary>
    private async Task<bool> Paused(TimeSpan pause, CancellationToken stopping)
    {
        try
        {
            await Task.Delay(pause, time, stopping);
            return true;
        }
        catch (OperationCanceledException)
        {
            return false;
        }
    }
}
