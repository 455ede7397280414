namespace EventFilter.Blocked;

/// <summary>
/// Keys spread over two or more lines (docs/file-format.md, "Probes"; docs/design.md, "Lines per key"): each slot's line
/// takes its share of the k probes, continuing the key's probe sequence. A file with one line per key never comes here;
/// the batch paths fall back to these one key at a time, since a spread filter is chosen for space, not for speed.
/// </summary>
internal sealed unsafe partial class BloomLines
{
    private bool MightExistSpread(ulong hash)
    {
        Span<uint> lines = stackalloc uint[FilterFileOptions.MaxLinesPerKey];
        lines = lines[.._linesPerKey];
        Probes.SpreadLines(hash, _lineCount, lines);
        for (int slot = 0; slot < lines.Length; slot++)
        {
            if (!SlotBitsSet(WordsOf(lines[slot]), (uint)hash * _slotStates[slot], _slotProbes[slot]))
            {
                return false;
            }
        }

        return true;
    }

    /// <summary>Sets the key's bits in every line of it that lacks one; true when any bit changed. A known slot still raises its stripe's record end.</summary>
    private bool AddSpread(ulong hash, long recordEnd)
    {
        Span<uint> lines = stackalloc uint[FilterFileOptions.MaxLinesPerKey];
        lines = lines[.._linesPerKey];
        Probes.SpreadLines(hash, _lineCount, lines);
        bool changed = false;
        for (int slot = 0; slot < lines.Length; slot++)
        {
            uint line = lines[slot];
            ulong* words = WordsOf(line);
            uint state = (uint)hash * _slotStates[slot];
            if (SlotBitsSet(words, state, _slotProbes[slot]))
            {
                if (recordEnd > _locks.RecordEnd(line))
                {
                    RaiseRecordEnd(line, recordEnd);
                }

                continue;
            }

            SetBits(line, words, state, _slotProbes[slot], recordEnd);
            changed = true;
        }

        return changed;
    }

    private void MightExistEach(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        for (int i = 0; i < hashes.Length; i++)
        {
            results[i] = MightExistSpread(hashes[i]);
        }
    }

    private void AddEach(ReadOnlySpan<ulong> hashes)
    {
        foreach (ulong hash in hashes)
        {
            AddSpread(hash, 0);
        }
    }

    private ulong* WordsOf(uint line) => (ulong*)(_lines + ((ulong)line << 6));

    /// <summary>The <paramref name="probes"/> bits from <paramref name="state"/> on are all set in the line at <paramref name="words"/>.</summary>
    private static bool SlotBitsSet(ulong* words, uint state, int probes)
    {
        if (VectorProbes.IsSupported && probes <= VectorProbes.MaxK)
        {
            return VectorProbes.AllSet(words, state, probes);
        }

        if (Avx2Probes.IsSupported && probes <= Avx2Probes.MaxK)
        {
            return Avx2Probes.AllSet(words, state, probes);
        }

        if (Vector128Probes.IsSupported && probes <= Vector128Probes.MaxK)
        {
            return Vector128Probes.AllSet(words, state, probes);
        }

        return ScalarBitsSet(words, state, probes);
    }
}
