using System.Runtime.InteropServices;

namespace EventFilter.Benchmarks.Baseline;

/// <summary>
/// The machine's own cost of writers sharing an in-cache filter's memory, without the filter's code: each step takes
/// one of 256 stripe locks (each on its own cache line) by an interlocked compare-exchange, ORs a word into a random
/// 64-byte line of the buffer and releases the stripe, as an add's lock and line write do, with no hashing, bit
/// arithmetic or checksum. With two writers on two cores, nearly every step finds its stripe's line and its data line
/// last written by the other core: the step then costs what moving cache lines between those two cores costs, which
/// depends on where the host runs the two vCPUs (one physical core's two threads, or two cores), not on the code.
/// </summary>
public sealed unsafe class SharedLineWriters : IDisposable
{
    private const int Stripes = 256, LineBytes = 64;
    private readonly byte* _lines;
    private readonly int* _stripes;
    private readonly uint _lineCount;

    public SharedLineWriters(long bytes)
    {
        _lineCount = checked((uint)(bytes / LineBytes));
        _lines = (byte*)NativeMemory.AlignedAlloc((nuint)bytes, LineBytes);
        _stripes = (int*)NativeMemory.AlignedAlloc(Stripes * LineBytes, LineBytes);
        new Span<byte>(_lines, (int)bytes).Clear();
        new Span<byte>(_stripes, Stripes * LineBytes).Clear();
    }

    /// <summary>Writes every line once (untimed): the buffer is then in this core's cache, as the filter's lines are.</summary>
    public void Touch()
    {
        for (uint line = 0; line < _lineCount; line++)
        {
            *(ulong*)(_lines + ((ulong)line * LineBytes)) |= 1;
        }
    }

    /// <summary><paramref name="steps"/> steps of writer <paramref name="writer"/>, its lines chosen by <paramref name="seed"/>.</summary>
    public long Write(int writer, int seed, int steps)
    {
        ulong state = ((ulong)(uint)seed << 8) | (uint)writer;
        long sink = 0;
        for (int i = 0; i < steps; i++)
        {
            ulong z = state += 0x9E3779B97F4A7C15;
            z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
            z ^= z >> 27;
            uint line = (uint)(z % _lineCount);
            ref int stripe = ref *(_stripes + ((line % Stripes) * (LineBytes / sizeof(int))));
            while (Interlocked.CompareExchange(ref stripe, 1, 0) != 0)
            {
                Thread.SpinWait(1);
            }

            ulong* word = (ulong*)(_lines + ((ulong)line * LineBytes)) + (z >> 61);
            sink += (long)(*word & 1);
            *word |= 1UL << (int)(z >> 58);
            Volatile.Write(ref stripe, 0);
        }

        return sink;
    }

    public void Dispose()
    {
        NativeMemory.AlignedFree(_lines);
        NativeMemory.AlignedFree(_stripes);
    }
}
