using System.Net.Sockets;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Accepts clients on one listening socket until the stop, and never stops listening on its own. Out of descriptors
/// (EMFILE), it frees its <see cref="DescriptorReserve"/> to accept the waiting client, answers it
/// "-ERR max number of file descriptors reached", closes it and takes the reserve again, so no client hangs in the
/// backlog; any other failed accept (or one the reserve cannot serve) is retried after a pause that doubles up to
/// <see cref="MaxPause"/>. Either is logged once per run of failures and counted in eventfilterd.errors (which degrades
/// health); the first accept that succeeds again is logged too. See docs/daemon-design.md, "Connections".
/// </summary>
internal sealed class AcceptLoop(Socket listener, DaemonMetrics metrics, TimeProvider time, ILogger logger)
{
    /// <summary>The first pause after a failed accept: without one, a listener whose backlog is readable would spin.</summary>
    public static readonly TimeSpan MinPause = TimeSpan.FromMilliseconds(50);

    public static readonly TimeSpan MaxPause = TimeSpan.FromSeconds(1);

    /// <summary>What a client accepted on the reserve is told, as Redis words a refusal for a limit.</summary>
    public static ReadOnlySpan<byte> OverLimitReply => "-ERR max number of file descriptors reached (RLIMIT_NOFILE); try again later\r\n"u8;

    /// <summary>Runs until <paramref name="stopping"/> (which also closes the socket); hands each client to <paramref name="serve"/>.</summary>
    public async Task Run(Action<Socket> serve, CancellationToken stopping)
    {
        using var reserve = new DescriptorReserve();
        TimeSpan pause = MinPause;
        int failures = 0;
        bool overLimitLogged = false, failureLogged = false;
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
            catch (SocketException e) when (e.SocketErrorCode == SocketError.TooManyOpenSockets && reserve.Release())
            {
                // Out of descriptors (Linux fails an accept so even with no client waiting): the next accept takes the
                // reserve's descriptor, and the client is told unless a descriptor is free again by then.
                metrics.Error(DaemonMetrics.Operation.Accept);
                failures++;
                if (!overLimitLogged)
                {
                    Log.AcceptOverLimit(logger, ProcessLimits.CurrentDescriptorLimit());
                    overLimitLogged = true;
                }

                continue;
            }
            catch (SocketException e)
            {
                metrics.Error(DaemonMetrics.Operation.Accept);
                failures++;
                if (!failureLogged)
                {
                    Log.AcceptFailed(logger, e.Message, (long)pause.TotalMilliseconds);
                    failureLogged = true;
                }

                if (!await Paused(pause, stopping))
                {
                    return;
                }

                pause = TimeSpan.FromTicks(Math.Min(pause.Ticks * 2, MaxPause.Ticks));
                reserve.TryTake();
                continue;
            }

            if (!reserve.TryTake())
            {
                // Accepted on the reserve's descriptor, and none is free to take it back: still out of descriptors.
                Refuse(client);
                reserve.TryTake();
                continue;
            }

            if (failures > 0)
            {
                Log.AcceptResumed(logger, failures);
                (failures, pause, overLimitLogged, failureLogged) = (0, MinPause, false, false);
            }

            serve(client);
        }
    }

    /// <summary>Tells a client accepted out of descriptors why, and closes it.</summary>
    private void Refuse(Socket client)
    {
        metrics.Refused();
        try
        {
            // The reply fits any empty socket buffer: the send cannot block.
            client.Send(OverLimitReply);
        }
        catch (SocketException)
        {
            // The client left already.
        }
        finally
        {
            client.Dispose();
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
