using System.Runtime.InteropServices;

namespace EventFilter.Daemon.Server;

/// <summary>
/// The Linux calls the connections' event loop makes (<see cref="EventLoop"/>): epoll, an eventfd to wake it, and the
/// reads and writes of a socket, each one system call. Errors come back as a negative result and
/// <see cref="LastError"/>, as the calls give them, since EAGAIN and EINTR are ordinary outcomes here, not failures.
/// </summary>
internal static partial class Epoll
{
    /// <summary>
    /// Readable (a request, or the end of the stream). An error or a hang-up (EPOLLERR, EPOLLHUP) is reported whatever
    /// was asked for, and the next read or send meets it.
    /// </summary>
    public const uint In = 0x001;

    /// <summary>Writable again after a reply filled the socket's buffer.</summary>
    public const uint Out = 0x004;

    /// <summary>EAGAIN: nothing to read, or no room to write, for now.</summary>
    public const int WouldBlock = 11;

    /// <summary>EINTR: a signal interrupted the call; make it again.</summary>
    public const int Interrupted = 4;

    private const int Add = 1;
    private const int Delete = 2;
    private const int Modify = 3;
    private const int CloseOnExec = 0x80000;
    private const int NonBlocking = 0x800;
    private const int DontWait = 0x40;
    private const int NoSignal = 0x4000;

    /// <summary>The errno of the last call on this thread.</summary>
    public static int LastError => Marshal.GetLastPInvokeError();

    /// <summary>A new epoll instance, or an IOException naming the reason (the descriptor limit).</summary>
    public static int Create() => Check(epoll_create1(CloseOnExec), "epoll_create1");

    /// <summary>A non-blocking eventfd, for other threads to wake the loop.</summary>
    public static int CreateWakeUp() => Check(eventfd(0, CloseOnExec | NonBlocking), "eventfd");

    public static void Watch(int epoll, int fd, uint events, ulong data) => Control(epoll, Add, fd, events, data);

    public static void Change(int epoll, int fd, uint events, ulong data) => Control(epoll, Modify, fd, events, data);

    /// <summary>Stops watching <paramref name="fd"/>; must come before the descriptor is closed and its number reused.</summary>
    public static void Forget(int epoll, int fd)
    {
        // Linux before 2.6.9 wanted an event even here; a zeroed one costs nothing.
        Span<byte> none = stackalloc byte[EpollEventLayout.MaxSize];
        none.Clear();
        _ = epoll_ctl(epoll, Delete, fd, none);
    }

    /// <summary>
    /// Waits for events without a timeout, into <paramref name="events"/> laid out as <paramref name="layout"/> says
    /// (as many as fit); 0 when a signal interrupted the wait.
    /// </summary>
    public static int Wait(int epoll, Span<byte> events, EpollEventLayout layout)
    {
        int ready = epoll_wait(epoll, events, events.Length / layout.Size, -1);
        return ready >= 0 || LastError == Interrupted ? Math.Max(ready, 0) : Check(ready, "epoll_wait");
    }

    /// <summary>Reads what has arrived without waiting: the bytes read, 0 at the end of the stream, or -1 (see <see cref="LastError"/>).</summary>
    public static int Receive(int fd, Span<byte> buffer) => (int)recv(fd, buffer, (nuint)buffer.Length, DontWait);

    /// <summary>Writes without waiting and without SIGPIPE: the bytes taken, or -1 (see <see cref="LastError"/>).</summary>
    public static int Send(int fd, ReadOnlySpan<byte> buffer) => (int)send(fd, buffer, (nuint)buffer.Length, DontWait | NoSignal);

    /// <summary>Adds one to the eventfd's counter, which wakes the loop.</summary>
    public static void Signal(int eventFd)
    {
        Span<byte> one = stackalloc byte[sizeof(ulong)];
        BitConverter.TryWriteBytes(one, 1UL);
        _ = write(eventFd, one, sizeof(ulong));
    }

    /// <summary>Resets the eventfd's counter after a wake-up.</summary>
    public static void Drain(int eventFd)
    {
        Span<byte> counter = stackalloc byte[sizeof(ulong)];
        _ = read(eventFd, counter, sizeof(ulong));
    }

    public static void Close(int fd) => _ = close(fd);

    private static void Control(int epoll, int operation, int fd, uint events, ulong data)
    {
        Span<byte> e = stackalloc byte[EpollEventLayout.MaxSize];
        EpollEventLayout.Current.Write(e, events, data);
        Check(epoll_ctl(epoll, operation, fd, e), "epoll_ctl");
    }

    private static int Check(int result, string call) =>
        result >= 0 ? result : throw new IOException($"{call} failed: {Marshal.GetPInvokeErrorMessage(LastError)}", LastError);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_create1(int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_ctl(int epoll, int operation, int fd, Span<byte> e);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int epoll_wait(int epoll, Span<byte> events, int maxEvents, int timeout);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int eventfd(uint initial, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint recv(int fd, Span<byte> buffer, nuint length, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint send(int fd, ReadOnlySpan<byte> buffer, nuint length, int flags);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint read(int fd, Span<byte> buffer, nuint length);

    [LibraryImport("libc", SetLastError = true)]
    private static partial nint write(int fd, ReadOnlySpan<byte> buffer, nuint length);

    [LibraryImport("libc", SetLastError = true)]
    private static partial int close(int fd);
}
