using System.Collections.Concurrent;
using System.Runtime.InteropServices;

namespace EventFilter.Daemon.Server;

/// <summary>
/// One thread serving many connections, as Redis's event loop does: a level-triggered epoll set of their sockets, and
/// in each pass (one wait's worth of ready sockets) three steps: every ready connection reads once and runs the whole
/// commands it got; then every one writes its filters' digest logs, so that one write per filter carries all the pass's
/// adds to it; then every one sends its replies. A socket is read only when epoll said it is readable, so a request
/// costs one read, where .NET's socket engine (edge-triggered) made a second that found nothing before each wait. The
/// measurements and what else was weighed: docs/decisions/async-connections.md.
/// </summary>
internal sealed class EventLoop : IDisposable
{
    // Data 0 marks the wake-up eventfd; a connection's data is its GCHandle, never 0.
    private const ulong WakeUpData = 0;
    private const int MaxEvents = 256;

    private readonly int _epoll;
    private readonly int _wakeUp;
    private readonly Thread _thread;
    private readonly ConcurrentQueue<ClientConnection> _posted = new();
    // The pass's connections that ran commands: loop thread only.
    private readonly List<ClientConnection> _ready = [];
    private readonly List<nint> _freeAfterPass = [];
    private volatile bool _stopping;

    public EventLoop(int index)
    {
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

    /// <summary>The handle a connection's events carry, made before its socket is watched; freed by <see cref="Forget"/>.</summary>
    public static nint Handle(ClientConnection connection) => GCHandle.ToIntPtr(GCHandle.Alloc(connection));

    /// <summary>Frees a handle whose socket was never watched; returns 0.</summary>
    public static nint Free(nint handle)
    {
        GCHandle.FromIntPtr(handle).Free();
        return 0;
    }

    /// <summary>Starts watching a connection's socket for requests.</summary>
    /// <exception cref="IOException">epoll refused it (the kernel's limit of watched descriptors).</exception>
    public void Watch(int fd, nint handle) => Epoll.Watch(_epoll, fd, Epoll.In, (ulong)handle);

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
        var events = new Epoll.Event[MaxEvents];
        while (!_stopping)
        {
            int count = Epoll.Wait(_epoll, events);
            for (int i = 0; i < count; i++)
            {
                if (events[i].Data == WakeUpData)
                {
                    Epoll.Drain(_wakeUp);
                    ResumePosted();
                }
                else if (GCHandle.FromIntPtr((nint)events[i].Data).Target is ClientConnection connection && connection.OnEvents(events[i].Events))
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
                GCHandle.FromIntPtr(handle).Free();
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
