using System.Runtime.CompilerServices;

namespace EventFilter.Blocked;

/// <summary>
/// One byte per OS page of the mapping, set when an add changes a line on that page. A flush counts and clears it
/// to report the bytes it made durable. A byte store is atomic, so marking needs no lock or interlocked operation.
/// </summary>
internal sealed class DirtyPageMap
{
    private readonly byte[] _pages;
    private readonly int _pageShift;

    public DirtyPageMap(long mappedLength)
    {
        PageSize = Environment.SystemPageSize;
        _pageShift = System.Numerics.BitOperations.Log2((uint)PageSize);
        _pages = new byte[(mappedLength + PageSize - 1) >> _pageShift];
    }

    public int PageSize { get; }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Mark(long offset) => _pages[offset >> _pageShift] = 1;

    /// <summary>Counts the marked pages and clears them. Marks made while this runs are kept for the next flush or counted now.</summary>
    public long TakeDirtyPageCount()
    {
        long count = 0;
        Span<byte> pages = _pages;
        int i = pages.IndexOf((byte)1);
        while (i >= 0)
        {
            count++;
            pages[i] = 0;
            int next = pages[(i + 1)..].IndexOf((byte)1);
            i = next < 0 ? -1 : i + 1 + next;
        }

        return count;
    }
}
