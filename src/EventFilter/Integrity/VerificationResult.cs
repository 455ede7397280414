namespace EventFilter;

/// <summary>What a scan of every line's checksum found. See docs/design.md, section "Verification".</summary>
/// <param name="LinesChecked">Data lines scanned.</param>
/// <param name="MismatchedLines">Lines whose checksum did not match their bits (set to all ones if the scan repaired).</param>
/// <param name="AllOnesLines">Lines whose 480 bits are all set, repaired ones included; they answer "maybe" for everything.</param>
/// <param name="RepairedLines">Lines this scan rewrote to all ones.</param>
/// <param name="FirstBadLines">The first few mismatched line numbers (0-based data lines), for operators.</param>
/// <param name="Threshold">The corrupted fraction above which a rebuild is needed.</param>
public sealed record VerificationResult(
    long LinesChecked,
    long MismatchedLines,
    long AllOnesLines,
    long RepairedLines,
    IReadOnlyList<long> FirstBadLines,
    double Threshold)
{
    /// <summary>How many bad line numbers a scan keeps.</summary>
    public const int MaxBadLinesReported = 16;

    /// <summary>Lines that count as corrupted: mismatched ones plus all-ones ones, without counting a line twice.</summary>
    public long CorruptedLines => MismatchedLines - RepairedLines + AllOnesLines;

    /// <summary><see cref="CorruptedLines"/> over all lines.</summary>
    public double CorruptedFraction => LinesChecked == 0 ? 0 : (double)CorruptedLines / LinesChecked;

    /// <summary>True when the corruption is beyond what all-ones lines can absorb and the filter must be rebuilt from the log.</summary>
    public bool RebuildRequired => CorruptedFraction > Threshold;

    /// <summary>True when every checksum matched and no line is all ones.</summary>
    public bool IsClean => CorruptedLines == 0;
}
