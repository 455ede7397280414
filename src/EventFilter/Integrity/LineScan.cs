using EventFilter.Blocked;
using EventFilter.Format;

namespace EventFilter.Integrity;

/// <summary>
/// One scan of every line, shared by the threads of <see cref="LineVerifier.Scan"/>: each takes 4 MiB chunks until
/// none are left, checksums four lines at a time, and looks closer only at a group where a checksum differs or a
/// line stores the all-ones checksum. The counts are summed once per chunk.
/// </summary>
internal sealed unsafe class LineScan
{
    /// <summary>Lines per work item: 4 MiB, large enough to amortise taking it, small enough to balance cores.</summary>
    internal const int ChunkLines = 1 << 16;

    private readonly byte* _lines;
    private readonly uint _lineCount;
    private readonly bool _repair;
    private readonly AtomicBitmap? _repairedLines;
    private readonly IProgress<long>? _linesDone;
    private readonly long _chunks;
    private readonly List<long> _badLines = [];
    private long _nextChunk, _mismatched, _allOnes, _repaired, _done;

    public LineScan(byte* lines, uint lineCount, bool repair, AtomicBitmap? repairedLines, IProgress<long>? linesDone)
    {
        _lines = lines;
        _lineCount = lineCount;
        _repair = repair;
        _repairedLines = repairedLines;
        _linesDone = linesDone;
        _chunks = (lineCount + (long)ChunkLines - 1) / ChunkLines;
    }

    public long Chunks => _chunks;


    /// <summary>
    /// One participant's share: chunks taken in turn, so a slower core simply takes fewer, and together the threads
    /// walk the file nearly in order, which the kernel's read-ahead follows when the file is not in memory.
    /// </summary>
    public void Work(int participant)
    {
        long chunk;
        while ((chunk = Interlocked.Increment(ref _nextChunk) - 1) < _chunks)
        {
            ScanChunk(chunk);
        }
    }

    public VerificationResult Result(double threshold)
    {
        return new VerificationResult(_lineCount, _mismatched, _allOnes, _repaired, _badLines.ToArray(), threshold);
    }

    private void ScanChunk(long chunk)
    {
        long first = chunk * ChunkLines, end = Math.Min(first + ChunkLines, _lineCount);
        var counts = default(Counts);
        uint allOnes = LineVerifier.AllOnesChecksum;
        long i = first;
        for (; i + 4 <= end; i += 4)
        {
            byte* line = _lines + (i << 6);
            LineChecksum.ComputeFour(line, out uint a, out uint b, out uint c, out uint d);
            uint sa = Stored(line), sb = Stored(line + 64), sc = Stored(line + 128), sd = Stored(line + 192);
            bool plain = ((a ^ sa) | (b ^ sb) | (c ^ sc) | (d ^ sd)) == 0 & sa != allOnes & sb != allOnes & sc != allOnes & sd != allOnes;
            if (!plain)
            {
                Note(i, a, ref counts);
                Note(i + 1, b, ref counts);
                Note(i + 2, c, ref counts);
                Note(i + 3, d, ref counts);
            }
        }

        for (; i < end; i++)
        {
            Note(i, LineChecksum.Compute(new ReadOnlySpan<byte>(_lines + (i << 6), FilterGeometry.LineSize)), ref counts);
        }

        if (counts.BadLines is not null)
        {
            MergeBadLines(counts.BadLines);
        }

        Interlocked.Add(ref _mismatched, counts.Mismatched);
        Interlocked.Add(ref _allOnes, counts.AllOnes);
        Interlocked.Add(ref _repaired, counts.Repaired);
        _linesDone?.Report(Interlocked.Add(ref _done, end - first));
    }

    private static uint Stored(byte* line) => *(uint*)(line + FilterGeometry.BitBytesPerLine);

    private void Note(long index, uint computed, ref Counts counts)
    {
        byte* line = _lines + (index << 6);
        LineVerifier.LineState state = LineVerifier.Classify(line, computed);
        if (state == LineVerifier.LineState.Mismatched)
        {
            counts.Mismatched++;
            if (counts.Mismatched <= VerificationResult.MaxBadLinesReported)
            {
                (counts.BadLines ??= []).Add(index);
            }

            if (_repair)
            {
                LineVerifier.SetAllOnes(line);
                _repairedLines?.Add(index);
                counts.Repaired++;
                state = LineVerifier.LineState.AllOnes;
            }
        }

        if (state == LineVerifier.LineState.AllOnes)
        {
            counts.AllOnes++;
        }
    }

    /// <summary>
    /// Merges a chunk's first bad lines (its lowest, as a chunk is scanned in order) and keeps the lowest of all: the
    /// chunks finish in any order, so a first-come sample could miss the file's first bad lines.
    /// </summary>
    private void MergeBadLines(List<long> chunkBadLines)
    {
        lock (_badLines)
        {
            _badLines.AddRange(chunkBadLines);
            _badLines.Sort();
            if (_badLines.Count > VerificationResult.MaxBadLinesReported)
            {
                _badLines.RemoveRange(VerificationResult.MaxBadLinesReported, _badLines.Count - VerificationResult.MaxBadLinesReported);
            }
        }
    }

    private struct Counts
    {
        public long Mismatched, AllOnes, Repaired;
        public List<long>? BadLines;
    }
}
