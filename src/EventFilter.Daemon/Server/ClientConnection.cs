using System.Net.Sockets;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One client, served on a thread of its own (<see cref="ConnectionThreads"/>) with blocking reads, after the accepting
/// thread has answered what came with the connect (<see cref="Begin"/>): reads into a buffer, runs every whole command
/// in it, and sends all their replies with one write, so a pipelined batch is answered in order at one send per read.
/// A protocol error is answered, then only this connection is closed. The buffer grows only as far as one command
/// needs (bounded by <see cref="RespLimits"/>), and after that command's replies goes back to its first size, as do
/// the connection's other buffers (<see cref="LargeBuffers"/>): an idle connection holds some tens of KiB.
/// </summary>
/// <remarks>
/// A thread per connection rather than async I/O: a blocked recv is woken by the kernel straight into this thread,
/// where an async read goes through the socket engine's epoll thread and then a thread-pool thread, two more hand-offs
/// per request (docs/daemon.md, "Measured"). eventfilterd serves a few local clients, so threads are cheap here.
/// </remarks>
internal sealed class ClientConnection(Socket socket, CommandContext context, RespLimits limits, DaemonMetrics metrics, ILogger logger)
{
    private readonly TaskCompletionSource _finished = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly ParseProgress _progress = new();
    private const int InitialBytes = 16 * 1024;
    private byte[] _buffer = new byte[InitialBytes];
    private int _filled;

    /// <summary>The client's id (CLIENT ID).</summary>
    public long Id => context.Client.Id;

    /// <summary>This connection's line of CLIENT LIST.</summary>
    public string Describe() => context.Client.Describe(context);

    /// <summary>Completes when the connection's thread has ended and its socket is closed.</summary>
    public Task Finished => _finished.Task;

    /// <summary>Ends the connection from another thread (the server is stopping): a blocked read returns at once.</summary>
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
    /// Starts the connection on the accepting thread, and answers there whatever the client sent along with its connect:
    /// a client that connects, asks once and leaves gets its reply without waiting for a connection thread to wake.
    /// False when the connection is already over. Never throws.
    /// </summary>
    public bool Begin()
    {
        metrics.Connected();
        return Guarded(() => socket.Available == 0 || ReadOnce());
    }

    /// <summary>Serves the client until it leaves or fails; never throws.</summary>
    public void Run() => Guarded(() =>
    {
        while (ReadOnce())
        {
        }

        return false;
    });

    /// <summary>Runs <paramref name="serve"/>, and ends the connection once it returns false or fails.</summary>
    private bool Guarded(Func<bool> serve)
    {
        bool open = false;
        try
        {
            open = serve();
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
            if (!open)
            {
                Release();
                metrics.Disconnected();
                socket.Dispose();
                _finished.TrySetResult();
            }
        }

        return open;
    }

    /// <summary>One read, its commands and their replies; false when the connection is over.</summary>
    private bool ReadOnce()
    {
        if (_filled == _buffer.Length)
        {
            Array.Resize(ref _buffer, Math.Min(_buffer.Length * 2, limits.MaxCommandBytes));
        }

        int read = socket.Receive(_buffer.AsSpan(_filled), SocketFlags.None);
        if (read == 0)
        {
            return false;
        }

        _filled += read;
        metrics.Totals.Received(read);
        context.Client.Active();
        bool keepOpen = RunCommands();

        // Group commit: one log write (and with --log-sync always one fsync) per filter for the whole batch, before any reply.
        if (!TryCommitAdded())
        {
            return false;
        }

        if (context.Reply.Length > 0)
        {
            Send();
        }

        Trim();
        return keepOpen;
    }

    /// <summary>After a read's replies: the buffers a large request grew go back to their first sizes (<see cref="LargeBuffers"/>).</summary>
    private void Trim()
    {
        if (_buffer.Length > LargeBuffers.KeepBytes && _filled <= InitialBytes)
        {
            LargeBuffers.Released(_buffer);
            byte[] small = new byte[InitialBytes];
            _buffer.AsSpan(0, _filled).CopyTo(small);
            _buffer = small;
        }

        if (_progress.Started)
        {
            // The arguments of the command that waits for its end are kept; it starts at the front of the buffer.
            context.Arguments.Rebase(_buffer, 0);
        }
        else
        {
            context.TrimScratch();
        }
    }

    /// <summary>The connection is over: its large buffers are counted as released, for <see cref="MemoryTrim"/>.</summary>
    private void Release()
    {
        LargeBuffers.Released(_buffer);
        _buffer = [];
        context.TrimScratch();
        context.Reply.Clear();
    }

    /// <summary>Runs every whole command in the buffer; false when the connection must close after the replies.</summary>
    private bool RunCommands()
    {
        int consumed = 0, commands = 0, added = 0, looked = 0;
        bool keepOpen = true;
        while (keepOpen)
        {
            ParseResult result = RespParser.TryParse(_buffer, _filled, limits, context.Arguments, consumed, _progress, out int used, out string? error);
            if (result == ParseResult.Incomplete)
            {
                keepOpen = _filled - consumed < limits.MaxCommandBytes || Refuse($"ERR Protocol error: command larger than {limits.MaxCommandBytes} bytes");
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
        _buffer.AsSpan(consumed, _filled - consumed).CopyTo(_buffer);
        _filled -= consumed;
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
    private bool TryCommitAdded()
    {
        try
        {
            context.CommitAdded();
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

    private void Send()
    {
        ReadOnlySpan<byte> pending = context.Reply.Written.Span;
        metrics.Totals.Sent(pending.Length);
        while (!pending.IsEmpty)
        {
            pending = pending[socket.Send(pending, SocketFlags.None)..];
        }

        context.Reply.Clear();
    }
}
