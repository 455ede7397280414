namespace EventFilter;

/// <summary>What a scan of every line's checksum found. See docs/design.md, section "Verification".</summary>
public sealed class VerificationResult
{
    internal VerificationResult(long linesChecked, long mismatchedLines, long allOnesLines, long repairedLines, IReadOnlyList<long> firstBadLines, double threshold)
    {
        LinesChecked = linesChecked;
        MismatchedLines = mismatchedLines;
        AllOnesLines = allOnesLines;
        RepairedLines = repairedLines;
        FirstBadLines = firstBadLines;
        Threshold = threshold;
    }

    /// <summary>Data lines scanned.</summary>
    public long LinesChecked { get; }

    /// <summary>Lines whose checksum did not match their bits (set to all ones if the scan repaired).</summary>
    public long MismatchedLines { get; }

    /// <summary>Lines whose 480 bits are all set, repaired ones included; they answer "maybe" for everything.</summary>
    public long AllOnesLines { get; }

    /// <summary>Lines this scan rewrote to all ones.</summary>
    public long RepairedLines { get; }

    /// <summary>The first few mismatched line numbers (0-based data lines), for operators.</summary>
    public IReadOnlyList<long> FirstBadLines { get; }

    /// <summary>The corrupted fraction above which a rebuild is needed.</summary>
    public double Threshold { get; }

    /// <summary>How many bad line numbers a scan keeps.</summary>
    internal const int MaxBadLinesReported = 16;

    /// <summary>Lines that count as corrupted: mismatched ones plus all-ones ones, without counting a line twice.</summary>
    public long CorruptedLines => MismatchedLines - RepairedLines + AllOnesLines;

    /// <summary><see cref="CorruptedLines"/> over all lines.</summary>
    public double CorruptedFraction => LinesChecked == 0 ? 0 : (double)CorruptedLines / LinesChecked;

    /// <summary>True when the corruption is beyond what all-ones lines can absorb and the filter must be rebuilt from the log.</summary>
    public bool RebuildRequired => CorruptedFraction > Threshold;

    /// <summary>True when every checksum matched and no line is all ones.</summary>
    internal bool IsClean => CorruptedLines == 0;
}
