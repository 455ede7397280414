using System.Runtime.InteropServices;
using EventFilter.Daemon.Server;

namespace EventFilter.Daemon.Tests;

/// <summary>
/// The event loop reads and writes <c>struct epoll_event</c> as the kernel lays it out on each architecture
/// (Server/EpollEventLayout.cs): before, one struct packed for x86-64 was used everywhere, so on ARM64 (16 bytes, data
/// at 8) every event after the first, and every event's data, was read from the wrong bytes.
/// </summary>
public sealed class EpollEventLayoutTests
{
    private const ulong First = 0x1122_3344_5566_7788;
    private const ulong Second = 0x99AA_BBCC_DDEE_FF01;

    [Theory]
    [InlineData(Architecture.X64, 12, 4)]
    [InlineData(Architecture.X86, 12, 4)]
    [InlineData(Architecture.Arm64, 16, 8)]
    [InlineData(Architecture.Arm, 16, 8)]
    [InlineData(Architecture.Armv6, 16, 8)]
    [InlineData(Architecture.RiscV64, 16, 8)]
    [InlineData(Architecture.LoongArch64, 16, 8)]
    [InlineData(Architecture.Ppc64le, 16, 8)]
    [InlineData(Architecture.S390x, 16, 8)]
    public void Layout_is_packed_on_x86_only(Architecture architecture, int size, int dataOffset)
    {
        EpollEventLayout layout = EpollEventLayout.For(architecture)!.Value;
        Assert.Equal((size, dataOffset), (layout.Size, layout.DataOffset));
    }

    [Fact]
    public void An_architecture_without_a_known_layout_has_none() => Assert.Null(EpollEventLayout.For(Architecture.Wasm));

    [Fact]
    public void The_running_architectures_layout_is_the_one_the_kernel_fills()
    {
        // Two events, each with data whose halves differ: a wrong stride or data offset decodes other values.
        EpollEventLayout layout = EpollEventLayout.Current;
        int epoll = Epoll.Create();
        int a = Epoll.CreateWakeUp(), b = Epoll.CreateWakeUp();
        try
        {
            Epoll.Watch(epoll, a, Epoll.In, First);
            Epoll.Watch(epoll, b, Epoll.In, Second);
            Epoll.Signal(a);
            Epoll.Signal(b);
            byte[] events = new byte[4 * layout.Size];
            Assert.Equal(2, Epoll.Wait(epoll, events, layout));
            Assert.Equal([First, Second], new[] { layout.Data(events, 0), layout.Data(events, 1) }.Order());
            Assert.Equal(Epoll.In, layout.Events(events, 0));
            Assert.Equal(Epoll.In, layout.Events(events, 1));
        }
        finally
        {
            Epoll.Close(a);
            Epoll.Close(b);
            Epoll.Close(epoll);
        }
    }

    [Fact]
    public void Events_laid_out_as_on_arm64_decode_at_16_byte_strides_with_data_at_8()
    {
        EpollEventLayout arm64 = EpollEventLayout.For(Architecture.Arm64)!.Value;
        byte[] events = new byte[3 * 16];
        events.AsSpan().Fill(0xEE); // the padding at 4-7 holds garbage, as the kernel leaves it
        Put(events, 0, Epoll.In, First);
        Put(events, 16, Epoll.Out, Second);
        Put(events, 32, Epoll.In | Epoll.Out, 7);

        Assert.Equal([Epoll.In, Epoll.Out, Epoll.In | Epoll.Out], [arm64.Events(events, 0), arm64.Events(events, 1), arm64.Events(events, 2)]);
        Assert.Equal([First, Second, 7UL], [arm64.Data(events, 0), arm64.Data(events, 1), arm64.Data(events, 2)]);
    }

    [Fact]
    public void An_event_written_as_on_arm64_has_its_data_at_8_and_zero_padding()
    {
        EpollEventLayout arm64 = EpollEventLayout.For(Architecture.Arm64)!.Value;
        byte[] written = new byte[16];
        written.AsSpan().Fill(0xEE);
        arm64.Write(written, Epoll.Out, Second);

        byte[] expected = new byte[16];
        Put(expected, 0, Epoll.Out, Second);
        Assert.Equal(expected, written);
    }

    [Fact]
    public void Events_laid_out_as_on_x64_decode_at_12_byte_strides_with_data_at_4()
    {
        EpollEventLayout x64 = EpollEventLayout.For(Architecture.X64)!.Value;
        byte[] events = new byte[2 * 12];
        MemoryMarshal.Write(events, Epoll.In);
        MemoryMarshal.Write(events.AsSpan(4), First);
        MemoryMarshal.Write(events.AsSpan(12), Epoll.Out);
        MemoryMarshal.Write(events.AsSpan(16), Second);

        Assert.Equal([Epoll.In, Epoll.Out], [x64.Events(events, 0), x64.Events(events, 1)]);
        Assert.Equal([First, Second], [x64.Data(events, 0), x64.Data(events, 1)]);
    }

    /// <summary>One event as a 64-bit-aligned struct epoll_event is: mask at 0, 4 bytes of padding (zeroed), data at 8.</summary>
    private static void Put(byte[] events, int at, uint mask, ulong data)
    {
        MemoryMarshal.Write(events.AsSpan(at), mask);
        events.AsSpan(at + 4, 4).Clear();
        MemoryMarshal.Write(events.AsSpan(at + 8), data);
    }
}
