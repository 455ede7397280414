using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;
using EventFilter.Blocked;
using EventFilter.Format;
using EventFilter.Threading;

namespace EventFilter.Integrity;

/// <summary>
/// Checks every line's checksum on every core. In repair mode a mismatched line becomes all ones with a valid
/// checksum: it then answers "maybe" for every key, which can only add false positives. See docs/design.md, section
/// "Verification", for why this runs at the memory's pace.
/// </summary>
internal static unsafe class LineVerifier
{
    /// <summary>Checksum of a line whose 60 bit-bytes are all 0xFF.</summary>
    public static readonly uint AllOnesChecksum = ComputeAllOnesChecksum();

    /// <summary>Scans <paramref name="lineCount"/> lines on <paramref name="threads"/> threads, the caller's included (0 for every core).</summary>
    public static VerificationResult Scan(byte* lines, uint lineCount, bool repair, double threshold, IProgress<long>? linesDone = null, AtomicBitmap? repairedLines = null, int threads = 0)
    {
        var scan = new LineScan(lines, lineCount, repair, repairedLines, linesDone);
        int participants = (int)Math.Clamp(threads > 0 ? threads : Environment.ProcessorCount, 1, Math.Max(1, scan.Chunks));
        if (participants == 1)
        {
            scan.Work(0);
        }
        else
        {
            // A gang of its own, not pool threads: a host's pool may be busy, and this is seconds of work per core.
            using var gang = new WorkerGang(participants, "EventFilter verify");
            gang.Run(scan.Work);
        }

        return scan.Result(threshold);
    }

    /// <summary>Rewrites a line as all ones with a valid checksum.</summary>
    public static void SetAllOnes(byte* line)
    {
        new Span<byte>(line, FilterGeometry.BitBytesPerLine).Fill(0xFF);
        *(uint*)(line + FilterGeometry.BitBytesPerLine) = AllOnesChecksum;
    }

    /// <summary>
    /// What one line is. The checksum alone decides valid or mismatched: a never-written, all-zero line has checksum 0
    /// and stores 0. Only a valid line that stores the all-ones checksum can be all ones, so only that one is compared.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    internal static LineState Classify(byte* line, uint computed)
    {
        uint stored = *(uint*)(line + FilterGeometry.BitBytesPerLine);
        if (computed != stored)
        {
            return LineState.Mismatched;
        }

        return stored == AllOnesChecksum && IsAllOnes(line) ? LineState.AllOnes : LineState.Valid;
    }

    /// <summary>True when the 60 bit-bytes are all 0xFF (bytes 60-63, the checksum, are forced to ones).</summary>
    private static bool IsAllOnes(byte* line)
    {
        Vector256<byte> checksumMask = Vector256.Create(0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0xFF, 0xFF).AsByte();
        return (Vector256.Load(line) & (Vector256.Load(line + 32) | checksumMask)) == Vector256<byte>.AllBitsSet;
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
