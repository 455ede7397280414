using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics.X86;

namespace EventFilter.Blocked;

/// <summary>The batch paths: hashes ready, lines prefetched ahead of their probes so that cache misses overlap.</summary>
internal sealed unsafe partial class BloomLines
{
    /// <summary>Hashes are ready; prefetch each line a little ahead of probing it, so misses overlap.</summary>
    public void MightExistBatch(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        if (results.Length < hashes.Length)
        {
            throw new ArgumentException("results must be at least as long as the batch.", nameof(results));
        }

        if (_linesPerKey != 1)
        {
            MightExistEach(hashes, results);
            return;
        }

        if (!HasPrefetch)
        {
            for (int start = 0; start < hashes.Length; start += TouchChunk)
            {
                ReadOnlySpan<ulong> chunk = hashes.Slice(start, Math.Min(TouchChunk, hashes.Length - start));
                _ = TouchLines(chunk);
                MightExistPrefetched(chunk, results.Slice(start, chunk.Length));
            }

            return;
        }

        PrefetchFirst(hashes);
        for (int i = 0; i < hashes.Length; i++)
        {
            PrefetchAhead(hashes, i);
            results[i] = AllBitsSet(LineOf(hashes[i]), (uint)hashes[i]);
        }
    }

    public void AddBatch(ReadOnlySpan<ulong> hashes)
    {
        if (_linesPerKey != 1)
        {
            AddEach(hashes);
            return;
        }

        if (!HasPrefetch)
        {
            for (int start = 0; start < hashes.Length; start += TouchChunk)
            {
                ReadOnlySpan<ulong> chunk = hashes.Slice(start, Math.Min(TouchChunk, hashes.Length - start));
                _ = TouchLines(chunk);
                AddPrefetched(chunk);
            }

            return;
        }

        PrefetchFirst(hashes);
        for (int i = 0; i < hashes.Length; i++)
        {
            PrefetchAhead(hashes, i);
            Add(hashes[i]);
        }
    }

    /// <summary>A constant to the JIT: true where the processor has a prefetch instruction that .NET exposes (x86's).</summary>
    public static bool HasPrefetch => Sse.IsSupported;

    /// <summary>Lines touched at a time where there is no prefetch (<see cref="TouchLines"/>): as many as a hash chunk.</summary>
    private const int TouchChunk = 64;

    /// <summary>
    /// The prefetch where .NET has no instruction for one (ARM64): a plain load of each key's line, in a loop of
    /// nothing else, so that the out-of-order core has many of the misses in flight at once instead of meeting them
    /// one by one inside the probes. Returns what it read, so that the loads are not dropped; the caller ignores it.
    /// Not inlined for the same reason: the JIT must compute a value it returns.
    /// </summary>
    [MethodImpl(MethodImplOptions.NoInlining)]
    public ulong TouchLines(ReadOnlySpan<ulong> hashes)
    {
        ulong seen = 0;
        foreach (ulong hash in hashes)
        {
            seen |= *LineOf(hash);
        }

        return seen;
    }

    // The batch loops keep PrefetchDistance lines in flight: the first ones before the loop, then one more per key.
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void PrefetchFirst(ReadOnlySpan<ulong> hashes)
    {
        int ahead = Math.Min(PrefetchDistance, hashes.Length);
        for (int i = 0; i < ahead; i++)
        {
            Prefetch(LineOf(hashes[i]));
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private void PrefetchAhead(ReadOnlySpan<ulong> hashes, int i)
    {
        if (i + PrefetchDistance < hashes.Length)
        {
            Prefetch(LineOf(hashes[i + PrefetchDistance]));
        }
    }

    /// <summary>Starts loading a key's line into the cache; a later probe of it then waits less or not at all.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Prefetch(ulong hash) => Prefetch(LineOf(hash));

    /// <summary>
    /// <see cref="Prefetch(ulong)"/>, and for an add the line's changed-line mark too: that bitmap (a bit per line,
    /// 512 KiB for 256 MiB) does not stay in the nearer caches, so an unprefetched mark cost an add a miss of its own.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void PrefetchForAdd(ulong hash)
    {
        uint line = Probes.Line(hash, _lineCount);
        Prefetch(_lines + ((ulong)line << 6));
        _changed?.Prefetch(line);
    }

    /// <summary>
    /// Adds keys whose lines were prefetched (<see cref="PrefetchForAdd"/>) a while ago. "Already all set?" is tested
    /// without an early exit, as in <see cref="MightExistPrefetched"/>: one branch per key, predictable in a batch of
    /// mostly new (or mostly known) names, where the early exit mispredicted at a random probe.
    /// </summary>
    public void AddPrefetched(ReadOnlySpan<ulong> hashes)
    {
        if (_linesPerKey != 1)
        {
            AddEach(hashes);
            return;
        }

        foreach (ulong hash in hashes)
        {
            uint line = Probes.Line(hash, _lineCount);
            ulong* words = (ulong*)(_lines + ((ulong)line << 6));
            if (!AllBitsSetBranchFree(words, (uint)hash))
            {
                SetBits(line, words, (uint)hash, _k, 0);
            }
        }
    }

    /// <summary>
    /// Answers keys whose lines were prefetched a while ago. Tests all k bits without an early exit: for a name not
    /// in the filter, which bit is the first clear one is random, and a mispredicted exit cost more than the probes.
    /// </summary>
    public void MightExistPrefetched(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        if (_linesPerKey != 1)
        {
            MightExistEach(hashes, results);
            return;
        }

        for (int i = 0; i < hashes.Length; i++)
        {
            results[i] = AllBitsSetBranchFree(LineOf(hashes[i]), (uint)hashes[i]);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static void Prefetch(void* address)
    {
        if (Sse.IsSupported)
        {
            Sse.Prefetch0(address);
        }
    }
}
