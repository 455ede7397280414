using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using EventFilter.Format;

namespace EventFilter.Blocked;

/// <summary>
/// The blocked Bloom filter over a run of 64-byte lines in memory (normally a memory-mapped file).
/// Every key's k bits sit in one line: a lookup is one cache miss, an add changes one line and dirties one page.
/// Bit b of a line is bit (b &amp; 7) of byte (b &gt;&gt; 3); on little-endian hardware that is bit (b &amp; 63) of 64-bit word (b &gt;&gt; 6).
/// See docs/design.md, section "Hot path". Single keys here; the batch paths in BloomLines.Batch.cs; what flushes and
/// replays do to lines in BloomLines.Copies.cs.
/// </summary>
internal sealed unsafe partial class BloomLines
{
    /// <summary>How far ahead the batch paths prefetch: enough lines in flight to cover DRAM latency, few enough to stay in L1.</summary>
    private const int PrefetchDistance = 16;

    private readonly byte* _lines;
    private readonly uint _lineCount;
    private readonly int _k;
    private readonly bool _vectorPass;
    private readonly bool _vectorProbes;
    private readonly bool _wideVectorProbes;
    private readonly Vector512<ulong> _unusedLanes;
    private readonly Vector256<uint> _unusedAvx2Lanes;
    private readonly Vector128<byte> _usedByteLanes;
    private readonly StripedSpinLock _locks;
    private readonly AtomicBitmap? _changed;

    // A key spread over more lines (docs/file-format.md, "Probes"): per slot, its probes and the multiplier that takes
    // the key's first probe state to the slot's first. Read by BloomLines.Spread.cs; a one-line file never touches them.
    private readonly int _linesPerKey;
    private readonly int[] _slotProbes = [];
    private readonly uint[] _slotStates = [];

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
    /// <param name="linesPerKey">The lines each key's k bits are divided over.</param>
    public BloomLines(byte* lines, uint lineCount, int k, AtomicBitmap? changed, int linesPerKey = 1)
    {
        _lines = lines;
        _lineCount = lineCount;
        _locks = new StripedSpinLock(lineCount);
        _k = k;
        _changed = changed;
        _linesPerKey = linesPerKey;
        if (linesPerKey > 1)
        {
            _slotProbes = new int[linesPerKey];
            _slotStates = new uint[linesPerKey];
            uint multiplier = 1;
            for (int slot = 0; slot < linesPerKey; slot++)
            {
                _slotProbes[slot] = Probes.SlotProbes(k, linesPerKey, slot);
                _slotStates[slot] = multiplier;
                for (int probe = 0; probe < _slotProbes[slot]; probe++)
                {
                    multiplier *= Probes.Step;
                }
            }
        }

        // The default k takes the first test, with the fields it had before wider k existed: a k chosen above 8 must
        // not cost the default's lookups a load or a branch. Each processor has one vector pass (VectorAllSet).
        bool vector = AnyVectorPass;
        _vectorProbes = vector && k <= VectorProbes.NarrowMaxK;
        _wideVectorProbes = vector && k > VectorProbes.NarrowMaxK && k <= VectorProbes.MaxK;
        _vectorPass = _vectorProbes || _wideVectorProbes;
        _unusedLanes = VectorProbes.IsSupported && _vectorProbes ? VectorProbes.NarrowUnusedLanes(k) : default;
        _unusedAvx2Lanes = Avx2Probes.IsSupported ? Avx2Probes.UnusedLanes(k) : default;
        _usedByteLanes = Vector128Probes.IsSupported ? Vector128Probes.UsedLanes(k) : default;
    }

    public uint LineCount => _lineCount;

    public int K => _k;

    public int LinesPerKey => _linesPerKey;

    public byte* Lines => _lines;

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool MightExist(ulong hash) => _linesPerKey == 1 ? AllBitsSet(LineOf(hash), (uint)hash) : MightExistSpread(hash);

    /// <summary>Sets the key's bits and keeps the line checksum in step. Returns false when every bit was already set.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public bool Add(ulong hash)
    {
        if (_linesPerKey != 1)
        {
            return AddSpread(hash, 0);
        }

        uint line = Probes.Line(hash, _lineCount);
        ulong* words = (ulong*)(_lines + ((ulong)line << 6));

        // Most adds of a known name change nothing; skip the lock and leave the page clean.
        if (AlreadySet(words, (uint)hash))
        {
            return false;
        }

        SetBits(line, words, (uint)hash, _k, 0);
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
        if (_linesPerKey != 1)
        {
            return AddSpread(hash, recordEnd);
        }

        uint line = Probes.Line(hash, _lineCount);
        ulong* words = (ulong*)(_lines + ((ulong)line << 6));
        if (AlreadySet(words, (uint)hash))
        {
            if (recordEnd > _locks.RecordEnd(line))
            {
                RaiseRecordEnd(line, recordEnd);
            }

            return false;
        }

        SetBits(line, words, (uint)hash, _k, recordEnd);
        return true;
    }

    /// <summary>The highest record end a host add has brought through any stripe (capped by <see cref="CapRecordEnds"/>).</summary>
    public long HighestRecordEnd() => _locks.HighestRecordEnd();

    /// <summary>The log was cut at <paramref name="position"/>: no record past it will become durable.</summary>
    public void CapRecordEnds(long position) => _locks.CapRecordEnds(position);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool AllBitsSetBranchFree(ulong* words, uint state)
    {
        if (AnyVectorPass && _vectorPass)
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

    /// <summary>A constant to the JIT: false only where even 128-bit vectors are the software fallback.</summary>
    private static bool AnyVectorPass => VectorProbes.IsSupported || Avx2Probes.IsSupported || Vector128Probes.IsSupported;

    /// <summary>
    /// The one vector pass this processor has (the checks are constants to the JIT, so only one remains): AVX-512,
    /// AVX2, or 128-bit vectors (ARM64, or x86 without AVX2). All give the bits of <see cref="Probes"/>, k up to 16.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool VectorAllSet(ulong* words, uint state)
    {
        if (VectorProbes.IsSupported)
        {
            return _vectorProbes ? VectorProbes.AllSet(words, state, _unusedLanes) : VectorProbes.AllSet(words, state, _k);
        }

        if (Avx2Probes.IsSupported)
        {
            return _vectorProbes ? Avx2Probes.AllSet(words, state, _unusedAvx2Lanes) : Avx2Probes.AllSetWide(words, state, _unusedAvx2Lanes);
        }

        return Vector128Probes.AllSet(words, state, _usedByteLanes, _wideVectorProbes);
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ulong* LineOf(ulong hash) => (ulong*)(_lines + ((ulong)Probes.Line(hash, _lineCount) << 6));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool AllBitsSet(ulong* words, uint state)
    {
        if (AnyVectorPass && _vectorPass)
        {
            return VectorAllSet(words, state);
        }

        return ScalarBitsSet(words, state, _k);
    }

    /// <summary>
    /// A single add's test for a known key. Only AVX-512 tests it in one step: elsewhere the loop stops at a new key's
    /// first clear bit, and the add's next instruction, the stripe's locked compare-exchange, waits for the test to
    /// finish, and the AVX2 pass's chain of multiplies and shuffles made an add of a new name at 256 MiB a quarter
    /// dearer than the loop (docs/benchmarks-instruction-sets.md). Lookups, with no lock after them, take the vector passes.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private bool AlreadySet(ulong* words, uint state) =>
        VectorProbes.IsSupported && _vectorPass ? VectorAllSet(words, state) : ScalarBitsSet(words, state, _k);

    /// <summary>The <paramref name="probes"/> bits from <paramref name="state"/> on, tested one at a time, stopping at the first clear one.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static bool ScalarBitsSet(ulong* words, uint state, int probes)
    {
        for (int i = 0; i < probes; i++)
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

    private void SetBits(uint line, ulong* words, uint state, int k, long recordEnd)
    {
        ref int stripe = ref _locks.Enter(line);
        StripedSpinLock.RaiseRecordEnd(ref stripe, recordEnd);
        uint* checksum = (uint*)((byte*)words + FilterGeometry.BitBytesPerLine);
        uint crc = *checksum;
        for (int i = 0; i < k; i++)
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
}
