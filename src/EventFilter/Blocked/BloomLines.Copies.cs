using EventFilter.Format;

namespace EventFilter.Blocked;

/// <summary>What flushes, folds and journal replay do to lines: copy them beside adds, and OR journaled bits in.</summary>
internal sealed unsafe partial class BloomLines
{
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
}
