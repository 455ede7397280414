using System.Numerics;
using System.Runtime.CompilerServices;

namespace EventFilter.Blocked;

/// <summary>
/// The catch-up's add path: keys grouped by line region (<see cref="RegionAdder"/>) and added group by group, so that a
/// large batch walks the file one region at a time. See docs/design.md, "Hot path".
/// </summary>
internal sealed unsafe partial class BloomLines
{
    /// <summary>
    /// Lines prefetched ahead on the grouped path. Deeper than <see cref="PrefetchDistance"/>: the hashes are all ready,
    /// nothing else competes for the miss buffers, and within a region the page walks hit the TLB.
    /// </summary>
    private const int GroupedPrefetchDistance = 32;

    /// <summary>A region is at least 2^14 lines (1 MiB, 256 pages: within the second-level TLB's reach).</summary>
    private const int MinRegionShift = 14;

    /// <summary>At most 2^10 regions, so that partitioning a batch writes to few enough streams to stay in cache.</summary>
    private const int MaxRegionsLog2 = 10;

    /// <summary>A line's region is <c>line &gt;&gt; RegionShift</c>.</summary>
    public int RegionShift => Math.Max(MinRegionShift, 32 - BitOperations.LeadingZeroCount(_lineCount - 1) - MaxRegionsLog2);

    /// <summary>Regions in the file (1 to 1,024).</summary>
    public int Regions => (int)(((_lineCount - 1) >> RegionShift) + 1);

    /// <summary>The line that holds <paramref name="hash"/>'s bits (its first slot's, for a spread key).</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public uint LineOfKey(ulong hash) => Probes.Line(hash, _lineCount);

    /// <summary>
    /// Adds keys grouped by region, prefetching <see cref="GroupedPrefetchDistance"/> lines (and their changed-line
    /// marks) ahead. Each add takes its line's stripe as <see cref="Add(ulong)"/> does, so host adds may race it: the
    /// grouping only decides the order, never who may write a line.
    /// </summary>
    public void AddGrouped(ReadOnlySpan<ulong> hashes)
    {
        if (_linesPerKey != 1)
        {
            AddEach(hashes);
            return;
        }

        if (!HasPrefetch)
        {
            AddBatch(hashes); // no prefetch instruction (ARM64): each chunk's lines loaded together instead (TouchLines)
            return;
        }

        int ahead = Math.Min(GroupedPrefetchDistance, hashes.Length);
        for (int i = 0; i < ahead; i++)
        {
            PrefetchForAdd(hashes[i]);
        }

        for (int i = 0; i < hashes.Length; i++)
        {
            if (i + GroupedPrefetchDistance < hashes.Length)
            {
                PrefetchForAdd(hashes[i + GroupedPrefetchDistance]);
            }

            ulong hash = hashes[i];
            uint line = Probes.Line(hash, _lineCount);
            ulong* words = (ulong*)(_lines + ((ulong)line << 6));
            if (!AllBitsSetBranchFree(words, (uint)hash))
            {
                SetBits(line, words, (uint)hash, _k, 0);
            }
        }
    }
}
