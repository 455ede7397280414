using System.Numerics;
using System.Runtime.CompilerServices;

namespace EventFilter.Hosting.Telemetry;

/// <summary>
/// A count bumped on the hot path (every Add and MightExist) and read rarely, by an observable counter. One cell per
/// processor, each on its own cache line, so threads on different cores never write the same line; plain
/// increments, not Interlocked, because a locked add costs more than the filter probe it counts. The price: two
/// threads that share a cell can, rarely, lose an increment, which a rate metric can afford.
/// </summary>
internal sealed class StripedCount
{
    private const int LongsPerLine = 8;
    private readonly long[] _cells;
    private readonly int _mask;

    public StripedCount()
    {
        int stripes = (int)BitOperations.RoundUpToPowerOf2((uint)Environment.ProcessorCount);
        _mask = stripes - 1;

        // One line of padding in front: the first cell must not share a line with the array's length field.
        _cells = new long[(stripes + 1) * LongsPerLine];
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Increment() => _cells[((Thread.GetCurrentProcessorId() & _mask) + 1) * LongsPerLine]++;

    /// <summary>Adds <paramref name="count"/> at once: a batch's answers.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(long count) => _cells[((Thread.GetCurrentProcessorId() & _mask) + 1) * LongsPerLine] += count;

    /// <summary>The total so far; never goes down, as an observable counter requires.</summary>
    public long Read()
    {
        long total = 0;
        for (int cell = LongsPerLine; cell < _cells.Length; cell += LongsPerLine)
        {
            total += Volatile.Read(ref _cells[cell]);
        }

        return total;
    }
}
