using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using EventFilter.Format;

namespace EventFilter.Integrity;

/// <summary>
/// Checks every line's checksum, in parallel across cores. A zero line (never written) and an all-ones line are
/// recognised with two 256-bit compares, before any CRC is computed. In repair mode a mismatched line becomes all
/// ones with a valid checksum: it then answers "maybe" for every key, which can only add false positives.
/// </summary>
internal static unsafe class LineVerifier
{
    /// <summary>Lines per work item: 4 MiB, large enough to amortise scheduling, small enough to balance cores.</summary>
    private const int ChunkLines = 1 << 16;

    /// <summary>Checksum of a line whose 60 bit-bytes are all 0xFF.</summary>
    public static readonly uint AllOnesChecksum = ComputeAllOnesChecksum();

    public static VerificationResult Scan(byte* lines, uint lineCount, bool repair, double threshold, IProgress<long>? linesDone = null, Blocked.AtomicBitmap? repairedLines = null)
    {
        long mismatched = 0;
        long allOnes = 0;
        long repaired = 0;
        long done = 0;
        var badLines = new List<long>();
        long chunks = (lineCount + (long)ChunkLines - 1) / ChunkLines;

        Parallel.For(0L, chunks, chunk =>
        {
            long first = chunk * ChunkLines;
            long end = Math.Min(first + ChunkLines, lineCount);
            long localMismatched = 0, localAllOnes = 0, localRepaired = 0;
            for (long i = first; i < end; i++)
            {
                byte* line = lines + (i << 6);
                LineState state = Classify(line);
                if (state == LineState.Mismatched)
                {
                    localMismatched++;
                    RecordBadLine(badLines, i);
                    if (repair)
                    {
                        SetAllOnes(line);
                        repairedLines?.Add(i);
                        localRepaired++;
                        state = LineState.AllOnes;
                    }
                }

                if (state == LineState.AllOnes)
                {
                    localAllOnes++;
                }
            }

            Interlocked.Add(ref mismatched, localMismatched);
            Interlocked.Add(ref allOnes, localAllOnes);
            Interlocked.Add(ref repaired, localRepaired);
            linesDone?.Report(Interlocked.Add(ref done, end - first));
        });

        badLines.Sort();
        return new VerificationResult(lineCount, mismatched, allOnes, repaired, badLines.Take(VerificationResult.MaxBadLinesReported).ToArray(), threshold);
    }

    /// <summary>Rewrites a line as all ones with a valid checksum.</summary>
    public static void SetAllOnes(byte* line)
    {
        new Span<byte>(line, FilterGeometry.BitBytesPerLine).Fill(0xFF);
        *(uint*)(line + FilterGeometry.BitBytesPerLine) = AllOnesChecksum;
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static LineState Classify(byte* line)
    {
        Vector256<byte> low = Vector256.Load(line);
        Vector256<byte> high = Vector256.Load(line + 32);
        if ((low | high) == Vector256<byte>.Zero)
        {
            return LineState.Valid;
        }

        var span = new ReadOnlySpan<byte>(line, FilterGeometry.LineSize);
        if (LineChecksum.Compute(span) != LineChecksum.ReadStored(span))
        {
            return LineState.Mismatched;
        }

        // Bytes 60-63 are the checksum: force them to ones before asking whether the bits are all ones.
        Vector256<byte> checksumMask = Vector256.Create(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF).AsByte();
        return (low & (high | checksumMask)) == Vector256<byte>.AllBitsSet ? LineState.AllOnes : LineState.Valid;
    }

    private static void RecordBadLine(List<long> badLines, long line)
    {
        lock (badLines)
        {
            // A bounded sample; chunks finish out of order, so the caller sorts it and keeps the lowest.
            if (badLines.Count < VerificationResult.MaxBadLinesReported * 64)
            {
                badLines.Add(line);
            }
        }
    }

    private static uint ComputeAllOnesChecksum()
    {
        Span<byte> line = stackalloc byte[FilterGeometry.LineSize];
        line.Fill(0xFF);
        return LineChecksum.Compute(line);
    }

    internal enum LineState
    {
        Valid,
        Mismatched,
        AllOnes,
    }
}
