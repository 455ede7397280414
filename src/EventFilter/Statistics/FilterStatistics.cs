namespace EventFilter;

/// <summary>A snapshot of how full a filter is and what that means for its answers.</summary>
/// <param name="SizeBytes">The configured size.</param>
/// <param name="LineCount">Data lines.</param>
/// <param name="K">Bits per name.</param>
/// <param name="BitsSet">Filter bits that are 1, all-ones lines included.</param>
/// <param name="TotalBits">Filter bits in all lines.</param>
/// <param name="AllOnesLines">Lines with every bit set: repaired corruption, or a line saturated by far too many names.</param>
/// <param name="EstimatedNames">Distinct names added, estimated per line from its bit count; all-ones lines are left out because they carry no count.</param>
/// <param name="EstimatedFalsePositiveRate">The chance an absent name gets "maybe" now: the mean over lines of (bits set / 480)^k.</param>
public sealed record FilterStatistics(
    long SizeBytes,
    long LineCount,
    int K,
    long BitsSet,
    long TotalBits,
    long AllOnesLines,
    double EstimatedNames,
    double EstimatedFalsePositiveRate)
{
    /// <summary>BitsSet over TotalBits.</summary>
    public double FillRatio => TotalBits == 0 ? 0 : (double)BitsSet / TotalBits;
}
