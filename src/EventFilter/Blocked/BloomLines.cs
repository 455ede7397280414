using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using System.Runtime.Intrinsics.X86;
using EventFilter.Format;

namespace EventFilter.Blocked;

/// <summary>
/// The blocked Bloom filter over a run of 64-byte lines in memory (normally a memory-mapped file).
/// Every key's k bits sit in one line: a lookup is one cache miss, an add changes one line and dirties one page.
/// Bit b of a line is bit (b &amp; 7) of byte (b &gt;&gt; 3); on little-endian hardware that is bit (b &amp; 63) of 64-bit word (b &gt;&gt; 6).
/// See docs/design.md, section "Hot path".
/// </summary>
internal sealed unsafe class BloomLines
{
    /// <summary>How far ahead the batch paths prefetch: enough lines in flight to cover DRAM latency, few enough to stay in L1.</summary>
    private const int PrefetchDistance = 16;

    private readonly byte* _lines;
    private readonly uint _lineCount;
    private readonly int _k;
    private readonly bool _vectorProbes;
    private readonly bool _secondVectorPass;
    private readonly Vector512<ulong> _unusedLanes;
    private readonly Vector512<ulong> _unusedSecondLanes;
    private readonly StripedSpinLock _locks = new();
    private readonly AtomicBitmap? _changed;

    static BloomLines()
    {
        // The word-wise bit addressing below equals the documented byte-wise numbering only on little-endian hardware.
        if (!BitConverter.IsLittleEndian)
        {
            throw new PlatformNotSupportedException("EventFilter needs a little-endian processor.");
        }
    }

    /// <param name="lines">The first data line (64-byte aligned).</param>
    /// <param name="lineCount">Data lines.</param>
    /// <param name="k">Bits per key.</param>
    /// <param name="changed">Where adds record the lines they change, for the next flush; null when nothing is flushed.</param>
    public BloomLines(byte* lines, uint lineCount, int k, AtomicBitmap? changed)
    {
        _lines = lines;
        _lineCount = lineCount;
        _k = k;
        _changed = changed;
        _vectorProbes = VectorProbes.IsSupported && k <= VectorProbes.MaxK;
        _secondVectorPass = k > VectorProbes.LanesPerPass;
        _unusedLanes = _vectorProbes ? VectorProbes.UnusedLanes(k) : default;
        _unusedSecondLanes = _vectorProbes ? VectorProbes.UnusedLanes(k - VectorProbes.LanesPerPass) : default;
    }

    public uint LineCount => _lineCount;

    public int K => _k;

    public byte* Lines => _lines;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ulong hash) => AllBitsSet(LineOf(hash), (uint)hash);

    /// <summary>Sets the key's bits and keeps the line checksum in step. Returns false when every bit was already set.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ulong hash)
    {
        uint line = Probes.Line(hash, _lineCount);
        ulong* words = (ulong*)(_lines + ((ulong)line << 6));

        // Most adds of a known name change nothing; skip the lock and leave the page clean.
        if (AllBitsSet(words, (uint)hash))
        {
            return false;
        }

        SetBits(line, words, (uint)hash, 0);
        return true;
    }

    /// <summary>
    /// <see cref="Add(ulong)"/> for a host's add of a log record ending at <paramref name="recordEnd"/>: the end is kept
    /// in the line's stripe too (<see cref="HighestRecordEnd"/>), before the caller looks for a file being built
    /// beside this one (docs/design.md, "Host contract"). A known key still raises the end, taking the stripe only
    /// when it must.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ulong hash, long recordEnd)
    {
        uint line = Probes.Line(hash, _lineCount);
        ulong* words = (ulong*)(_lines + ((ulong)line << 6));
        if (AllBitsSet(words, (uint)hash))
        {
            if (recordEnd > _locks.RecordEnd(line))
            {
                RaiseRecordEnd(line, recordEnd);
            }

            return false;
        }

        SetBits(line, words, (uint)hash, recordEnd);
        return true;
    }

    /// <summary>The highest record end a host add has brought through any stripe (capped by <see cref="CapRecordEnds"/>).</summary>
    public long HighestRecordEnd() => _locks.HighestRecordEnd();

    /// <summary>The log was cut at <paramref name="position"/>: no record past it will become durable.</summary>
    public void CapRecordEnds(long position) => _locks.CapRecordEnds(position);

    /// <summary>Hashes are ready; prefetch each line a little ahead of probing it, so misses overlap.</summary>
    public void MightExistBatch(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        if (results.Length < hashes.Length)
        {
            throw new ArgumentException("results must be at least as long as the batch.", nameof(results));
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
        PrefetchFirst(hashes);
        for (int i = 0; i < hashes.Length; i++)
        {
            PrefetchAhead(hashes, i);
            Add(hashes[i]);
        }
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
        foreach (ulong hash in hashes)
        {
            uint line = Probes.Line(hash, _lineCount);
            ulong* words = (ulong*)(_lines + ((ulong)line << 6));
            if (!AllBitsSetBranchFree(words, (uint)hash))
            {
                SetBits(line, words, (uint)hash, 0);
            }
        }
    }

    /// <summary>
    /// Answers keys whose lines were prefetched a while ago. Tests all k bits without an early exit: for a name not
    /// in the filter, which bit is the first clear one is random, and a mispredicted exit cost more than the probes.
    /// </summary>
    public void MightExistPrefetched(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        for (int i = 0; i < hashes.Length; i++)
        {
            results[i] = AllBitsSetBranchFree(LineOf(hashes[i]), (uint)hashes[i]);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool AllBitsSetBranchFree(ulong* words, uint state)
    {
        if (VectorProbes.IsSupported && _vectorProbes)
        {
            return VectorAllSet(words, state);
        }

        ulong all = 1;
        for (int probe = 0; probe < _k; probe++)
        {
            uint bit = Probes.Bit(state);
            all &= words[bit >> 6] >> (int)bit;
            state *= Probes.Step;
        }

        return (all & 1) != 0;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool VectorAllSet(ulong* words, uint state) => _secondVectorPass
        ? VectorProbes.AllSet(words, state, _unusedLanes, _unusedSecondLanes)
        : VectorProbes.AllSet(words, state, _unusedLanes);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ulong* LineOf(ulong hash) => (ulong*)(_lines + ((ulong)Probes.Line(hash, _lineCount) << 6));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool AllBitsSet(ulong* words, uint state)
    {
        if (VectorProbes.IsSupported && _vectorProbes)
        {
            return VectorAllSet(words, state);
        }

        for (int i = 0; i < _k; i++)
        {
            uint bit = Probes.Bit(state);
            if ((words[bit >> 6] & (1UL << (int)bit)) == 0)
            {
                return false;
            }

            state *= Probes.Step;
        }

        return true;
    }

    [MethodImpl(MethodImplOptions.NoInlining)]
    private void RaiseRecordEnd(uint line, long recordEnd)
    {
        ref int stripe = ref _locks.Enter(line);
        StripedSpinLock.RaiseRecordEnd(ref stripe, recordEnd);
        StripedSpinLock.Exit(ref stripe);
    }

    private void SetBits(uint line, ulong* words, uint state, long recordEnd)
    {
        ref int stripe = ref _locks.Enter(line);
        StripedSpinLock.RaiseRecordEnd(ref stripe, recordEnd);
        uint* checksum = (uint*)((byte*)words + FilterGeometry.BitBytesPerLine);
        uint crc = *checksum;
        for (int i = 0; i < _k; i++)
        {
            // Branch-free: in a filter near design load each bit is clear about half the time, and a mispredicted
            // "already set?" per bit cost more than the store. Word 7 shares its upper half with the checksum; we hold
            // the stripe and write the checksum after the loop, so rewriting it loses nothing.
            uint bit = Probes.Bit(state);
            ulong old = words[bit >> 6];
            uint wasClear = (uint)(~(old >> (int)bit)) & 1;
            words[bit >> 6] = old | (1UL << (int)bit);
            crc ^= LineChecksum.OfBit(bit) & (0u - wasClear);
            state *= Probes.Step;
        }

        *checksum = crc;

        // Marked inside the stripe: the flush reads a marked line under the same stripe after clearing the mark, so
        // an add either lands before that read or marks the line again for the next flush (docs/design.md).
        _changed?.Add(line);
        StripedSpinLock.Exit(ref stripe);
    }

    /// <summary>Copies a line's 60 bit-bytes and checksum while no add can be half-way through it.</summary>
    public void CopyLine(uint line, Span<byte> destination)
    {
        ref int stripe = ref _locks.Enter(line);
        new ReadOnlySpan<byte>(_lines + ((ulong)line << 6), FilterGeometry.LineSize).CopyTo(destination);
        StripedSpinLock.Exit(ref stripe);
    }

    /// <summary>
    /// Copies a line's 60 bit-bytes for the journal without ever holding its stripe, so a flush preempted mid-copy
    /// cannot make an add wait. Waits until no add is inside the line's stripe, then copies: every add whose mark the
    /// flush has just taken is in the copy, and an add that starts later marks the line again (docs/design.md,
    /// "Concurrency"). The copy may hold part of such a later add and its checksum may then not match: the journal
    /// keeps only the bits, and ORs them on replay.
    /// </summary>
    public void CopyBitsAfterAdds(uint line, Span<byte> destination)
    {
        _locks.WaitUntilFree(line);
        new ReadOnlySpan<byte>(_lines + ((ulong)line << 6), FilterGeometry.BitBytesPerLine).CopyTo(destination);
    }

    /// <summary>
    /// Copies a whole line, its checksum matching its bits, without holding its stripe unless adds keep landing on it:
    /// waits until no add is inside the stripe, copies, and copies again if an add started meanwhile (the checksum
    /// then no longer matches). Every copied word is the line's word before or after an add, so even a torn copy
    /// whose checksum happened to match would hold only bits that were set.
    /// </summary>
    public void CopyConsistentLine(uint line, Span<byte> destination)
    {
        const int Attempts = 64;
        ReadOnlySpan<byte> source = new(_lines + ((ulong)line << 6), FilterGeometry.LineSize);
        for (int attempt = 0; attempt < Attempts; attempt++)
        {
            _locks.WaitUntilFree(line);
            source.CopyTo(destination);
            if (LineChecksum.Compute(destination) == LineChecksum.ReadStored(destination))
            {
                return;
            }
        }

        CopyLine(line, destination);
    }

    /// <summary>Returns once every add that was inside a stripe at the call has finished; its writes are then visible.</summary>
    public void WaitForAddsInProgress() => _locks.WaitUntilAllFree();

    /// <summary>
    /// ORs journaled bits into a line and XORs the checksum with the newly set bits' contribution, exactly as an add
    /// does: a valid line stays valid, a corrupted one stays detectably corrupted. A line that changes is marked for
    /// the next flush, so a replay that the main file already holds (a fold finished, its journal not yet deleted)
    /// writes nothing. Returns true if any bit changed.
    /// </summary>
    public bool OrLine(uint line, ReadOnlySpan<byte> bits)
    {
        byte* target = _lines + ((ulong)line << 6);
        Span<byte> added = stackalloc byte[FilterGeometry.LineSize];
        added.Clear();
        bool any = false;
        ref int stripe = ref _locks.Enter(line);
        for (int i = 0; i < FilterGeometry.BitBytesPerLine; i++)
        {
            byte fresh = (byte)(bits[i] & ~target[i]);
            added[i] = fresh;
            target[i] |= fresh;
            any |= fresh != 0;
        }

        if (any)
        {
            *(uint*)(target + FilterGeometry.BitBytesPerLine) ^= LineChecksum.Compute(added);
            _changed?.Add(line);
        }

        StripedSpinLock.Exit(ref stripe);
        return any;
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
