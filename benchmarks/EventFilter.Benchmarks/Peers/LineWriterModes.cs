using System.Runtime.InteropServices;
using EventFilter.Blocked;
using EventFilter.Format;

namespace EventFilter.Benchmarks.Peers;

/// <summary>
/// The two ways to set a key's bits that EventFilter does not use, over the same 64-byte lines, probes and checksum
/// upkeep, for the contended-writers comparison in docs/design.md ("Concurrency"): lock-free interlocked ORs (one
/// <c>Interlocked.Or</c> per newly set bit and one compare-exchange XOR for the checksum), and a single writer with
/// no synchronisation at all (correct only while exactly one thread adds). EventFilter itself takes a striped spin lock.
/// </summary>
public sealed unsafe class LineWriterModes : IDisposable
{
    private readonly byte* _lines;
    private readonly uint _lineCount;

    public LineWriterModes(long sizeBytes)
    {
        _lineCount = FilterGeometry.FromSize(sizeBytes).LineCount;
        _lines = (byte*)NativeMemory.AlignedAlloc((nuint)_lineCount * FilterGeometry.LineSize, 4096);
        Clear();
    }

    public void Clear() => NativeMemory.Clear(_lines, (nuint)_lineCount * FilterGeometry.LineSize);

    /// <summary>Lock-free: each new bit claimed by one interlocked OR; the checksum kept by interlocked XOR (XOR commutes).</summary>
    public void AddInterlocked(ulong hash, int k)
    {
        ulong* words = Line(hash);
        uint state = (uint)hash;
        uint crc = 0;
        for (int i = 0; i < k; i++)
        {
            uint bit = Probes.Bit(state);
            ulong mask = 1UL << (int)bit;
            if ((Volatile.Read(ref words[bit >> 6]) & mask) == 0 && (Interlocked.Or(ref words[bit >> 6], mask) & mask) == 0)
            {
                crc ^= LineChecksum.OfBit(bit);
            }

            state *= Probes.Step;
        }

        if (crc != 0)
        {
            // No Interlocked.Xor in .NET: a compare-exchange loop, one locked instruction when uncontended.
            ref uint checksum = ref *(uint*)((byte*)words + FilterGeometry.BitBytesPerLine);
            uint seen = Volatile.Read(ref checksum);
            while (Interlocked.CompareExchange(ref checksum, seen ^ crc, seen) is var actual && actual != seen)
            {
                seen = actual;
            }
        }
    }

    /// <summary>One writer, no synchronisation: plain read-modify-writes.</summary>
    public void AddSingleWriter(ulong hash, int k)
    {
        ulong* words = Line(hash);
        uint state = (uint)hash;
        uint crc = *(uint*)((byte*)words + FilterGeometry.BitBytesPerLine);
        for (int i = 0; i < k; i++)
        {
            uint bit = Probes.Bit(state);
            ulong mask = 1UL << (int)bit;
            ulong old = words[bit >> 6];
            if ((old & mask) == 0)
            {
                words[bit >> 6] = old | mask;
                crc ^= LineChecksum.OfBit(bit);
            }

            state *= Probes.Step;
        }

        *(uint*)((byte*)words + FilterGeometry.BitBytesPerLine) = crc;
    }

    public void Dispose() => NativeMemory.AlignedFree(_lines);

    private ulong* Line(ulong hash) => (ulong*)(_lines + ((ulong)Probes.Line(hash, _lineCount) << 6));
}
