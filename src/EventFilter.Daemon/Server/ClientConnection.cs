using System.Net.Sockets;
using EventFilter.Daemon.Commands;
using EventFilter.Daemon.Protocol;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One client, served on its <see cref="EventLoop"/>'s thread: when its socket is readable, one read and every whole
/// command in it (<see cref="ClientRequests"/>); after the pass's reads, its digest-log writes; then all its replies
/// with one send, so a pipelined batch is answered in order at one send per read. With --log-sync always, it waits for
/// the batch's fsyncs without a thread (<see cref="LogSyncQueue"/>), reading nothing meanwhile. A protocol error is
/// answered, then only this connection is closed. An idle one holds no buffer (docs/daemon-design.md, "Connections").
/// </summary>
internal sealed class ClientConnection(Socket socket, CommandContext context, RespLimits limits, DaemonMetrics metrics, LogSyncQueue? logSync, ILogger logger)
{
    private readonly ClientRequests _requests = new(context, limits, metrics);
    private readonly TaskCompletionSource _finished = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private readonly int _fd = (int)socket.SafeHandle.DangerousGetHandle();
    private EventLoop? _loop;
    private nint _handle; // what its events carry: the loop makes and frees it (EventLoop's remarks), this only passes it back
    private Action<ClientConnection>? _ended;
    private LogSyncWait? _sync; // made at the first batch in either sync mode; only --log-sync always fills it and waits
    private Action? _resume;
    private uint _interest = Epoll.In;
    private int _sent;
    private ConnectionPhase _phase = ConnectionPhase.Serving;
    // Close once these replies are sent (QUIT, a protocol error); the last read filled its room (keep the big buffer).
    private bool _closeAfterReplies, _filledRoom;

    /// <summary>The client's id (CLIENT ID).</summary>
    public long Id => context.Client.Id;

    /// <summary>This connection's line of CLIENT LIST.</summary>
    public string Describe() => context.Client.Describe(context);

    /// <summary>Completes when the connection has ended and its socket is closed; never faults.</summary>
    public Task Finished => _finished.Task;

    /// <summary>Ends the connection from another thread (the server is stopping, CLIENT KILL): the loop sees the hang-up at once.</summary>
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
    /// Serves the client on <paramref name="loop"/> until it leaves or fails, then calls <paramref name="ended"/>. What
    /// came with the connect is answered in the loop's next pass. Never throws: a socket epoll refuses is closed.
    /// </summary>
    public void Start(EventLoop loop, Action<ClientConnection> ended)
    {
        metrics.Connected();
        (_loop, _ended, _handle) = (loop, ended, EventLoop.Attach(this)); // set before epoll can report an event
        try
        {
            loop.Watch(_fd, _handle);
        }
        catch (IOException e)
        {
            _handle = 0; // the loop freed it; nothing to take out of epoll
            Fail(e);
        }
    }

    /// <summary>On the loop: the socket's events. True when commands ran, for <see cref="CommitAdded"/> and <see cref="SendReplies"/>.</summary>
    public bool OnEvents(uint events)
    {
        if (_phase == ConnectionPhase.Syncing)
        {
            // Only a hang-up or an error comes while the batch waits for its fsync: level-triggered, it would come back
            // every pass, so the socket leaves epoll and the connection ends once the wait is over.
            _loop!.Forget(_fd, _handle);
            _phase = ConnectionPhase.SyncingHungUp;
        }

        if (_phase != ConnectionPhase.Serving)
        {
            return false;
        }

        try
        {
            if ((events & Epoll.Out) == 0)
            {
                return Read();
            }

            SendPending();
        }
        catch (Exception e)
        {
            Fail(e);
        }

        return false;
    }

    /// <summary>On the loop, after every read of the pass: writes the logs this batch added to, before any reply.</summary>
    public void CommitAdded()
    {
        if (_phase == ConnectionPhase.Closed)
        {
            return;
        }

        try
        {
            context.WriteAdded((_sync ??= new LogSyncWait()).Filters);
            if (_sync.Filters.Count > 0)
            {
                _phase = ConnectionPhase.Syncing;
                Interest(0);
                _sync.Start(logSync!, _resume ??= () => _loop!.Post(this));
            }
        }
        catch (IOException e)
        {
            // A failed log write acknowledges nothing: the connection closes without the batch's replies.
            metrics.Error(DaemonMetrics.Operation.LogCommit);
            Log.LogCommitFailed(logger, e);
            Close();
        }
        catch (Exception e)
        {
            Fail(e);
        }
    }

    /// <summary>On the loop, after the pass's log writes: sends the replies (unless the batch waits for an fsync).</summary>
    public void SendReplies()
    {
        if (_phase != ConnectionPhase.Serving)
        {
            return;
        }

        try
        {
            SendPending();
        }
        catch (Exception e)
        {
            Fail(e);
        }
    }

    /// <summary>On the loop, once the batch's fsyncs are done (<see cref="EventLoop.Post"/>): its replies go out, or the connection closes.</summary>
    public void Resume()
    {
        if (_phase == ConnectionPhase.Closed)
        {
            return;
        }

        try
        {
            _sync!.Finish();
        }
        catch (IOException e)
        {
            // A failed fsync acknowledges nothing: the connection closes without the batch's replies.
            metrics.Error(DaemonMetrics.Operation.LogCommit);
            Log.LogCommitFailed(logger, e);
            Close();
            return;
        }
        catch (ObjectDisposedException)
        {
            Close(); // the server is stopping and its queue refused the batch: nothing acknowledged
            return;
        }

        if (_phase == ConnectionPhase.SyncingHungUp)
        {
            Close(); // the client hung up meanwhile
            return;
        }

        _phase = ConnectionPhase.Serving;
        SendReplies();
    }

    /// <summary>One read of what has arrived, and the whole commands in it; true when it read anything.</summary>
    private bool Read()
    {
        Memory<byte> room = _requests.Space();
        int read = Epoll.Receive(_fd, room.Span);
        if (read <= 0)
        {
            // 0: the client left, or an abort shut the socket. EAGAIN: nothing after all.
            if (read == 0 || Epoll.LastError is not (Epoll.WouldBlock or Epoll.Interrupted))
            {
                Close();
            }

            return false;
        }

        _filledRoom = read == room.Length;
        metrics.Totals.Received(read);
        context.Client.Active();
        _closeAfterReplies = !_requests.Run(read);
        return true;
    }

    /// <summary>Sends what is left of the replies; when the socket's buffer is full, waits for room, reading nothing meanwhile.</summary>
    private void SendPending()
    {
        ReadOnlySpan<byte> replies = context.Reply.Written.Span;
        while (_sent < replies.Length)
        {
            int sent = Epoll.Send(_fd, replies[_sent..]);
            if (sent < 0)
            {
                switch (Epoll.LastError)
                {
                    case Epoll.Interrupted:
                        continue;
                    case Epoll.WouldBlock:
                        Interest(Epoll.Out);
                        return;
                    default:
                        Close(); // the client went away
                        return;
                }
            }

            _sent += sent;
        }

        metrics.Totals.Sent(replies.Length);
        context.Reply.Clear();
        _sent = 0;
        _requests.Trim();
        if (_closeAfterReplies)
        {
            Close();
            return;
        }

        if (_requests.Idle)
        {
            // Nothing pending: unless more is likely waiting, borrow nothing while the client thinks.
            _requests.Rest(_filledRoom);
            context.Reply.ReleaseBuffer();
        }

        Interest(Epoll.In);
    }

    private void Interest(uint events)
    {
        if (_interest != events && _phase is ConnectionPhase.Serving or ConnectionPhase.Syncing)
        {
            _loop!.Change(_fd, _handle, events);
            _interest = events;
        }
    }

    private void Fail(Exception e)
    {
        // A bug must cost this connection only, never the daemon or the other clients.
        metrics.Error(DaemonMetrics.Operation.Connection);
        Log.ConnectionFailed(logger, e);
        Close();
    }

    /// <summary>The connection is over: out of epoll, buffers back, socket closed, its restores parked; once.</summary>
    private void Close()
    {
        if (_phase == ConnectionPhase.Closed)
        {
            return;
        }

        bool watched = _handle != 0 && _phase != ConnectionPhase.SyncingHungUp;
        _phase = ConnectionPhase.Closed;
        if (watched)
        {
            _loop!.Forget(_fd, _handle);
        }

        _requests.Release();
        context.Reply.ReleaseBuffer();
        metrics.Disconnected();
        socket.Dispose();
        context.ParkRestores();
        _ended!(this);
        _finished.TrySetResult();
    }
}
