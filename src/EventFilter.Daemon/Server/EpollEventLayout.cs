using System.Runtime.CompilerServices;
using System.Runtime.InteropServices;

namespace EventFilter.Daemon.Server;

/// <summary>
/// Where the kernel's <c>struct epoll_event</c> keeps its two fields: a 32-bit mask at offset 0 and 64 bits of the
/// caller's data. The kernel's header packs the struct on x86-64 only (and i386 aligns a 64-bit field to 4 bytes
/// anyway), so there it is 12 bytes with the data at 4; on every other architecture .NET runs on Linux the data is
/// aligned to 8: 16 bytes, data at 8. One struct with a fixed <c>Pack</c> is right on one of the two and silently
/// wrong on the other, so every event the loop reads or writes goes through this layout, chosen once per process from
/// the architecture (docs/daemon-design.md, "Connections"). Fields are in the machine's byte order, as the kernel
/// writes them.
/// </summary>
internal readonly struct EpollEventLayout
{
    private EpollEventLayout(int size, int dataOffset) => (Size, DataOffset) = (size, dataOffset);

    private static readonly EpollEventLayout? s_current = For(RuntimeInformation.ProcessArchitecture);

    /// <summary>The layout of the running process; throws <see cref="PlatformNotSupportedException"/> on an architecture not known here.</summary>
    public static EpollEventLayout Current => s_current ?? throw new PlatformNotSupportedException(
        $"the layout of epoll_event on {RuntimeInformation.ProcessArchitecture} is not known here, so no event loop can serve clients");

    /// <summary>The most bytes one event takes on any architecture: room for one event on the stack.</summary>
    public const int MaxSize = 16;

    /// <summary>Bytes from one event to the next in the array <c>epoll_wait</c> fills.</summary>
    public int Size { get; }

    /// <summary>Offset of the 64-bit data.</summary>
    public int DataOffset { get; }

    /// <summary>The layout on <paramref name="architecture"/>, or null where it is not known (then the daemon does not start).</summary>
    public static EpollEventLayout? For(Architecture architecture) => architecture switch
    {
        Architecture.X64 or Architecture.X86 => new EpollEventLayout(12, 4),
        Architecture.Arm64 or Architecture.Arm or Architecture.Armv6 or Architecture.LoongArch64
            or Architecture.Ppc64le or Architecture.RiscV64 or Architecture.S390x => new EpollEventLayout(16, 8),
        _ => null,
    };

    /// <summary>The mask of the <paramref name="index"/>th event in <paramref name="events"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public uint Events(ReadOnlySpan<byte> events, int index) => MemoryMarshal.Read<uint>(events[(index * Size)..]);

    /// <summary>The data of the <paramref name="index"/>th event in <paramref name="events"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ulong Data(ReadOnlySpan<byte> events, int index) => MemoryMarshal.Read<ulong>(events[((index * Size) + DataOffset)..]);

    /// <summary>Writes one event at the start of <paramref name="destination"/>, which holds at least <see cref="Size"/> bytes.</summary>
    public void Write(Span<byte> destination, uint events, ulong data)
    {
        destination[..Size].Clear();
        MemoryMarshal.Write(destination, in events);
        MemoryMarshal.Write(destination[DataOffset..], in data);
    }
}
