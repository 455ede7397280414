using System.Collections.Concurrent;
using System.Runtime.InteropServices;
using EventFilter.Daemon.Telemetry;
using Microsoft.Extensions.Logging;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One thread serving many connections, as Redis's event loop does: a level-triggered epoll set of their sockets, and
/// in each pass (one wait's worth of ready sockets) three steps: every ready connection reads once and runs the whole
/// commands it got; then every one writes its filters' digest logs, so that one write per filter carries all the pass's
/// adds to it; then every one sends its replies. A socket is read only when epoll said it is readable, so a request
/// costs one read, where .NET's socket engine (edge-triggered) made a second that found nothing before each wait. The
/// measurements and what else was weighed: docs/decisions/own-event-loop.md.
/// </summary>
/// <remarks>
/// <para>
/// The loop owns each connection's handle, the <see cref="GCHandle{T}"/> its events carry as their data
/// (docs/daemon-design.md, "Connections"). <see cref="Attach"/> makes it, on the accepting thread, before the socket
/// is watched, so that the connection knows it before epoll can report an event. Only the loop frees it: at once
/// when <see cref="Watch"/> fails (no event can carry it), otherwise after the pass in which <see cref="Forget"/>
/// took the socket out of epoll, since an event taken from epoll earlier in that pass may still carry it; after that
/// pass epoll holds no event with it. Only the loop's thread turns a handle back into its connection. The connection
/// merely passes its handle back to <see cref="Change"/> and <see cref="Forget"/>.
/// </para>
/// <para>
/// An exception that escapes a pass (every connection's own failures are caught in <see cref="ClientConnection"/>)
/// is logged (<c>EventLoopFailed</c>) and ends the process through <see cref="Environment.FailFast(string, Exception)"/>,
/// as the runtime's socket engine does: a loop that stopped would leave its clients unanswered in a daemon that still
/// looks alive, and systemd restarts a daemon that aborted.
/// </para>
/// </remarks>
internal sealed class EventLoop : IDisposable
{
    // Data 0 marks the wake-up eventfd; a connection's data is its handle, never 0.
    private const ulong WakeUpData = 0;
    private const int MaxEvents = 256;

    private readonly int _index;
    private readonly ILogger _logger;
    private readonly Action<string, Exception> _failFast;
    private readonly EpollEventLayout _layout;
    private readonly int _epoll;
    private readonly int _wakeUp;
    private readonly Thread _thread;
    private readonly ConcurrentQueue<ClientConnection> _posted = new();
    // The pass's connections that ran commands: loop thread only.
    private readonly List<ClientConnection> _ready = [];
    private readonly List<nint> _freeAfterPass = [];
    private volatile bool _stopping;

    /// <summary>Starts the loop's thread.</summary>
    /// <param name="failFast">What ends the process after a failure was logged; tests pass one that does not.</param>
    /// <exception cref="PlatformNotSupportedException">epoll_event's layout is not known on this architecture.</exception>
    public EventLoop(int index, ILogger logger, Action<string, Exception>? failFast = null)
    {
        (_index, _logger, _failFast) = (index, logger, failFast ?? Environment.FailFast);
        _layout = EpollEventLayout.Current;
        _epoll = Epoll.Create();
        _wakeUp = -1;
        try
        {
            _wakeUp = Epoll.CreateWakeUp();
            Epoll.Watch(_epoll, _wakeUp, Epoll.In, WakeUpData);
        }
        catch
        {
            if (_wakeUp >= 0)
            {
                Epoll.Close(_wakeUp);
            }

            Epoll.Close(_epoll);
            throw;
        }

        _thread = new Thread(Run) { IsBackground = true, Name = $"eventfilterd loop {index}" };
        _thread.Start();
    }

    /// <summary>Event loops: one per two cores, at least one (docs/daemon-design.md, "Connections").</summary>
    public static int DefaultCount => Math.Max(1, Environment.ProcessorCount / 2);

    /// <summary>From any thread: the handle <paramref name="connection"/>'s events will carry; pass it to <see cref="Watch"/> next.</summary>
    public static nint Attach(ClientConnection connection) => GCHandle<ClientConnection>.ToIntPtr(new GCHandle<ClientConnection>(connection));

    /// <summary>Starts watching a connection's socket for requests.</summary>
    /// <exception cref="IOException">epoll refused it (the kernel's limit of watched descriptors); the handle is freed.</exception>
    public void Watch(int fd, nint handle)
    {
        try
        {
            Epoll.Watch(_epoll, fd, Epoll.In, (ulong)handle);
        }
        catch (IOException)
        {
            GCHandle<ClientConnection>.FromIntPtr(handle).Dispose();
            throw;
        }
    }

    /// <summary>What the connection waits for next: requests (<see cref="Epoll.In"/>), room to send (<see cref="Epoll.Out"/>), or nothing (0).</summary>
    public void Change(int fd, nint handle, uint events) => Epoll.Change(_epoll, fd, events, (ulong)handle);

    /// <summary>
    /// On the loop's thread: stops watching the socket (before it is closed). The handle is freed after the pass, since
    /// an event already taken from epoll in this pass may still carry it.
    /// </summary>
    public void Forget(int fd, nint handle)
    {
        Epoll.Forget(_epoll, fd);
        _freeAfterPass.Add(handle);
    }

    /// <summary>From any thread: the loop calls <see cref="ClientConnection.Resume"/> on its own thread.</summary>
    public void Post(ClientConnection connection)
    {
        _posted.Enqueue(connection);
        Epoll.Signal(_wakeUp);
    }

    /// <summary>Ends the thread; call once every connection of this loop has finished.</summary>
    public void Dispose()
    {
        _stopping = true;
        Epoll.Signal(_wakeUp);
        _thread.Join();
        Epoll.Close(_wakeUp);
        Epoll.Close(_epoll);
    }

    private void Run()
    {
        try
        {
            Serve();
        }
        catch (Exception e)
        {
            Log.EventLoopFailed(_logger, _index, e);
            _failFast($"eventfilterd: event loop {_index} failed: {e.Message}", e);
        }
    }

    private void Serve()
    {
        byte[] events = new byte[MaxEvents * _layout.Size];
        while (!_stopping)
        {
            int count = Epoll.Wait(_epoll, events, _layout);
            for (int i = 0; i < count; i++)
            {
                ulong data = _layout.Data(events, i);
                if (data == WakeUpData)
                {
                    Epoll.Drain(_wakeUp);
                    ResumePosted();
                    continue;
                }

                ClientConnection connection = GCHandle<ClientConnection>.FromIntPtr((nint)data).Target;
                if (connection.OnEvents(_layout.Events(events, i)))
                {
                    _ready.Add(connection);
                }
            }

            // Every read of the pass before any log write, and every log write before any reply.
            foreach (ClientConnection connection in _ready)
            {
                connection.CommitAdded();
            }

            foreach (ClientConnection connection in _ready)
            {
                connection.SendReplies();
            }

            _ready.Clear();
            foreach (nint handle in _freeAfterPass)
            {
                GCHandle<ClientConnection>.FromIntPtr(handle).Dispose();
            }

            _freeAfterPass.Clear();
        }
    }

    private void ResumePosted()
    {
        while (_posted.TryDequeue(out ClientConnection? connection))
        {
            connection.Resume();
        }
    }
}
