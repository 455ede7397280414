using System.Runtime.InteropServices;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Baseline;

/// <summary>
/// The physical limit: a dependent pointer chase through a buffer the size of the filter. Each 64-byte node holds
/// the index of the next, in one random cycle through every node (Sattolo's shuffle), so each step is one random
/// memory access that cannot start before the previous one ends and that no prefetcher can predict.
/// Page size matters as much as DRAM: the baseline asks for 4 KiB pages like the filter's file mapping gets;
/// the huge-page variant shows what 2 MiB pages would buy.
/// </summary>
public sealed unsafe partial class PointerChaseBuffer : IDisposable
{
    private const int NodeShift = 6;
    private const int MadviseHugePage = 14;
    private const int MadviseNoHugePage = 15;
    private const nuint HugePageSize = 2 << 20;

    private readonly byte* _buffer;
    private readonly uint _nodes;
    private uint _position;

    public PointerChaseBuffer(long bytes, bool hugePages)
    {
        uint nodes = _nodes = checked((uint)(bytes >> NodeShift));
        _buffer = (byte*)NativeMemory.AlignedAlloc((nuint)bytes, HugePageSize);
        if (OperatingSystem.IsLinux())
        {
            // Ask explicitly either way, so the result does not depend on the machine's transparent_hugepage default.
            _ = Madvise(_buffer, (nuint)bytes, hugePages ? MadviseHugePage : MadviseNoHugePage);
        }

        uint[] next = SattoloCycle(nodes);
        for (uint i = 0; i < nodes; i++)
        {
            *(uint*)(_buffer + ((ulong)i << NodeShift)) = next[i];
        }
    }

    /// <summary>Takes <paramref name="steps"/> dependent steps; returns where it ended so the work cannot be elided.</summary>
    public uint Walk(int steps)
    {
        uint position = _position;
        byte* buffer = _buffer;
        for (int i = 0; i < steps; i++)
        {
            position = *(uint*)(buffer + ((ulong)position << NodeShift));
        }

        _position = position;
        return position;
    }

    /// <summary>
    /// Like <see cref="Walk"/>, from node <paramref name="start"/> and without moving the shared position, so that
    /// several threads can walk the one cycle at once, each its own chain of misses.
    /// </summary>
    public uint WalkFrom(uint start, int steps)
    {
        uint position = start;
        byte* buffer = _buffer;
        for (int i = 0; i < steps; i++)
        {
            position = *(uint*)(buffer + ((ulong)position << NodeShift));
        }

        return position;
    }

    /// <summary>Nodes in the cycle.</summary>
    public uint Nodes => _nodes;

    public void Dispose() => NativeMemory.AlignedFree(_buffer);

    /// <summary>A permutation that is a single cycle through all <paramref name="count"/> nodes: next[i] is i's successor.</summary>
    private static uint[] SattoloCycle(uint count)
    {
        uint[] next = new uint[count];
        for (uint i = 0; i < count; i++)
        {
            next[i] = i;
        }

        var random = new SplitMix64(0x5A77_0010);
        for (uint i = count - 1; i > 0; i--)
        {
            // j < i strictly (Fisher-Yates would allow j == i): that is what makes one cycle instead of many.
            uint j = random.NextBelow(i);
            (next[i], next[j]) = (next[j], next[i]);
        }

        return next;
    }

    [LibraryImport("libc", EntryPoint = "madvise")]
    private static partial int Madvise(void* address, nuint length, int advice);
}
