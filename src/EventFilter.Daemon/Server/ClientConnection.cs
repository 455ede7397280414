using System.Net.Sockets;
using System.Runtime.CompilerServices;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Filters;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One client, served by asynchronous socket calls on the socket engine's threads (<see cref="RespListener"/>): waits
/// for data with a read into a small buffer of its own, continued in a borrowed one (<see cref="ReadBuffer"/>) when a
/// request is larger, runs every whole command in it,
/// and sends all their replies with one write, so a pipelined batch is answered in order at one send per read. With
/// --log-sync always, the batch's fsyncs are awaited, not waited for (<see cref="LogSyncQueue"/>). A protocol error is
/// answered, then only this connection is closed. Between requests the connection holds no buffer, only its state:
/// thousands of idle clients cost a few KiB each (docs/daemon-design.md, "Connections").
/// </summary>
internal sealed class ClientConnection(Socket socket, CommandContext context, RespLimits limits, DaemonMetrics metrics, LogSyncQueue? logSync, ILogger logger)
{
    private readonly ParseProgress _progress = new();
    private readonly ReadBuffer _read = new(limits.MaxCommandBytes);
    // Made at the first batch that must wait for an fsync (--log-sync always only).
    private LogSyncWait? _sync;

    /// <summary>The client's id (CLIENT ID).</summary>
    public long Id => context.Client.Id;

    /// <summary>This connection's line of CLIENT LIST.</summary>
    public string Describe() => context.Client.Describe(context);

    /// <summary>Completes when the connection has ended and its socket is closed; never faults.</summary>
    public Task Finished { get; private set; } = Task.CompletedTask;

    /// <summary>Ends the connection from another thread (the server is stopping, CLIENT KILL): a pending read returns at once.</summary>
    public void Abort()
    {
        try
        {
            socket.Shutdown(SocketShutdown.Both);
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // Already gone.
        }
    }

    /// <summary>
    /// Serves the client until it leaves or fails, then calls <paramref name="ended"/>. Runs on the caller's thread up to
    /// the first read that must wait: what came with the connect is answered at once. Never throws.
    /// </summary>
    public void Start(Action<ClientConnection> ended)
    {
        metrics.Connected();
        Finished = Serve(ended);
    }

    private async Task Serve(Action<ClientConnection> ended)
    {
        try
        {
            bool open = true, filledRoom = false;
            while (open)
            {
                if (_read.Filled == 0 && !_progress.Started)
                {
                    // Nothing pending: unless more is likely waiting, borrow nothing while the client thinks.
                    _read.Rest(filledRoom);
                    context.Reply.ReleaseBuffer();
                }

                Memory<byte> room = _read.Space();
                int read = await socket.ReceiveAsync(room, SocketFlags.None);
                if (read == 0)
                {
                    break;
                }

                filledRoom = read == room.Length;

                _read.Received(read);
                metrics.Totals.Received(read);
                context.Client.Active();
                open = RunCommands();

                // Group commit: one log write (and with --log-sync always one fsync) per filter for the whole batch, before any reply.
                if (!await TryCommitAdded())
                {
                    break;
                }

                if (context.Reply.Length > 0)
                {
                    await Send();
                }

                Trim();
            }
        }
        catch (Exception e) when (e is SocketException or ObjectDisposedException)
        {
            // The client went away or the server is stopping: nothing to answer.
        }
        catch (Exception e)
        {
            // A bug must cost this connection only, never the daemon or the other clients.
            metrics.Error(DaemonMetrics.Operation.Connection);
            Log.ConnectionFailed(logger, e);
        }
        finally
        {
            Release();
            metrics.Disconnected();
            socket.Dispose();
            ParkRestores();
            ended(this);
        }
    }

    /// <summary>
    /// A restore this client fed last is parked, freeing its descriptors: on the thread pool, since parking fsyncs and
    /// an event thread never waits for the disk. A chunk from another connection meanwhile keeps it open.
    /// </summary>
    private void ParkRestores()
    {
        if (context.Store.RestoresFedBy(Id) is not { } restores)
        {
            return;
        }

        long id = Id;
        ThreadPool.QueueUserWorkItem(_ =>
        {
            try
            {
                restores.Park(id);
            }
            catch (Exception e) when (e is IOException or UnauthorizedAccessException)
            {
                metrics.Error(DaemonMetrics.Operation.Storage);
                Log.CommandStorageFailed(logger, e);
            }
        });
    }

    /// <summary>After a read's replies: the buffers a large request grew go back to their first sizes (<see cref="LargeBuffers"/>).</summary>
    private void Trim()
    {
        _read.Shrink();
        if (_progress.Started)
        {
            // The arguments of the command that waits for its end are kept; it starts at the front of the buffer.
            context.Arguments.Rebase(_read.Bytes, 0);
        }
        else
        {
            context.TrimScratch();
        }
    }

    /// <summary>The connection is over: its buffers go back (large ones counted as released, for <see cref="MemoryTrim"/>).</summary>
    private void Release()
    {
        _read.Release();
        context.TrimScratch();
        context.Reply.ReleaseBuffer();
    }

    /// <summary>Runs every whole command in the buffer; false when the connection must close after the replies.</summary>
    private bool RunCommands()
    {
        byte[] buffer = _read.Bytes;
        int filled = _read.Filled;
        int consumed = 0, commands = 0, added = 0, looked = 0;
        bool keepOpen = true;
        while (keepOpen)
        {
            ParseResult result = RespParser.TryParse(buffer, filled, limits, context.Arguments, consumed, _progress, out int used, out string? error);
            if (result == ParseResult.Incomplete)
            {
                keepOpen = filled - consumed < limits.MaxCommandBytes || Refuse($"ERR Protocol error: command larger than {limits.MaxCommandBytes} bytes");
                break;
            }

            if (result == ParseResult.ProtocolError)
            {
                keepOpen = Refuse(error!);
                break;
            }

            consumed += used;
            if (context.Arguments.Count > 0)
            {
                RespCommand command = CommandTable.Identify(context.Arguments[0]);
                (int adds, int checks) = CommandItems.Of(command, context.Arguments);
                commands++;
                added += adds;
                looked += checks;
                RunOne(command);
                keepOpen = !context.CloseAfterReply;
            }
        }

        if (commands > 0)
        {
            metrics.Ran(commands, added, looked);
        }

        // Keep the unparsed tail at the front for the next read; a partial command's parse resumes there (_progress).
        _read.Consumed(consumed);
        return keepOpen;
    }

    private void RunOne(RespCommand command)
    {
        // Before anything runs: an unauthenticated client learns nothing, not even which commands exist.
        if (!context.Authenticated && !ServerCommands.AllowedBeforeAuth(command))
        {
            context.Reply.Error("NOAUTH Authentication required.");
            return;
        }

        CommandTable.Run(context, command);
    }

    /// <summary>A failed log write or fsync acknowledges nothing: the connection closes without the batch's replies.</summary>
    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder<>))]
    private async ValueTask<bool> TryCommitAdded()
    {
        try
        {
            List<NamedFilter> unsynced = (_sync ??= new LogSyncWait()).Filters;
            context.WriteAdded(unsynced);
            if (unsynced.Count > 0)
            {
                try
                {
                    await _sync.WaitAsync(logSync!);
                }
                finally
                {
                    unsynced.Clear();
                }
            }

            return true;
        }
        catch (IOException e)
        {
            metrics.Error(DaemonMetrics.Operation.LogCommit);
            Log.LogCommitFailed(logger, e);
            return false;
        }
    }

    private bool Refuse(string error)
    {
        context.Reply.Error(error);
        return false;
    }

    [AsyncMethodBuilder(typeof(PoolingAsyncValueTaskMethodBuilder))]
    private async ValueTask Send()
    {
        ReadOnlyMemory<byte> pending = context.Reply.Written;
        metrics.Totals.Sent(pending.Length);
        while (!pending.IsEmpty)
        {
            pending = pending[await socket.SendAsync(pending, SocketFlags.None)..];
        }

        context.Reply.Clear();
    }
}
