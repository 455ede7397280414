namespace EventFilter;

/// <summary>A snapshot of how full a filter is and what that means for its answers.</summary>
public sealed class FilterStatistics
{
    internal FilterStatistics(long sizeBytes, long lineCount, int k, long bitsSet, long totalBits, long allOnesLines, double estimatedNames, double estimatedFalsePositiveRate)
    {
        SizeBytes = sizeBytes;
        LineCount = lineCount;
        K = k;
        BitsSet = bitsSet;
        TotalBits = totalBits;
        AllOnesLines = allOnesLines;
        EstimatedNames = estimatedNames;
        EstimatedFalsePositiveRate = estimatedFalsePositiveRate;
    }

    /// <summary>The configured size.</summary>
    internal long SizeBytes { get; }

    /// <summary>Data lines.</summary>
    internal long LineCount { get; }

    /// <summary>Bits per name.</summary>
    internal int K { get; }

    /// <summary>Filter bits that are 1, all-ones lines included.</summary>
    internal long BitsSet { get; }

    /// <summary>Filter bits in all lines.</summary>
    internal long TotalBits { get; }

    /// <summary>Lines with every bit set: repaired corruption, or a line saturated by far too many names.</summary>
    public long AllOnesLines { get; }

    /// <summary>Distinct names added, estimated per line from its bit count; all-ones lines are left out because they carry no count.</summary>
    public double EstimatedNames { get; }

    /// <summary>The chance an absent name gets "maybe" now: the mean over lines of (bits set / 480)^k.</summary>
    public double EstimatedFalsePositiveRate { get; }

    /// <summary>BitsSet over TotalBits.</summary>
    public double FillRatio => TotalBits == 0 ? 0 : (double)BitsSet / TotalBits;
}
