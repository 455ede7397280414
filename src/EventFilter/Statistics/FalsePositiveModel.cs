using EventFilter.Format;

namespace EventFilter;

/// <summary>
/// The exact false-positive model of a blocked Bloom filter with 480-bit lines. Names spread over lines as a Poisson
/// process with mean n / lines; a line holding j names has each bit still clear with probability (1 - 1/480)^(k j);
/// a query for an absent name lands on such a line and finds all k probes set. See docs/design.md, section "False positives".
/// </summary>
public static class FalsePositiveModel
{
    /// <summary>Expected false-positive rate after <paramref name="names"/> distinct names.</summary>
    public static double Expected(double names, long lines, int k)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(lines);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(k);
        double lambda = names / lines;
        if (lambda <= 0)
        {
            return 0;
        }

        double keepClear = Math.Log(1 - (1.0 / FilterGeometry.BitsPerLine));
        int from = (int)Math.Max(0, Math.Floor(lambda - (12 * Math.Sqrt(lambda)) - 12));
        int to = (int)Math.Ceiling(lambda + (12 * Math.Sqrt(lambda)) + 12);
        double sum = 0;
        double logFactorial = LogFactorial(from);
        for (int j = from; j <= to; j++)
        {
            logFactorial += j > from ? Math.Log(j) : 0;
            double logPoisson = (j * Math.Log(lambda)) - lambda - logFactorial;
            double bitSet = 1 - Math.Exp(keepClear * k * j);
            sum += Math.Exp(logPoisson) * Math.Pow(bitSet, k);
        }

        return sum;
    }

    /// <summary>The classic (unblocked) Bloom filter rate: (1 - e^(-k n / m))^k, for comparison.</summary>
    internal static double Classic(double names, double bits, int k) => Math.Pow(1 - Math.Exp(-k * names / bits), k);

    /// <summary>The k in 1..<paramref name="maxK"/> with the lowest expected rate at <paramref name="bitsPerName"/>.</summary>
    internal static int BestK(double bitsPerName, int maxK = 24)
    {
        const long lines = 1_000_000;
        double names = lines * FilterGeometry.BitsPerLine / bitsPerName;
        int best = 1;
        for (int k = 2; k <= maxK; k++)
        {
            if (Expected(names, lines, k) < Expected(names, lines, best))
            {
                best = k;
            }
        }

        return best;
    }

    /// <summary>
    /// The data lines (of 480 filter bits each) a file of <paramref name="sizeBytes"/> holds: what <see cref="Expected"/>
    /// takes for a size (docs/file-format.md).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The size is not a valid <c>stream-existence-filter-size</c>.</exception>
    public static long LinesFor(long sizeBytes) => FilterGeometry.FromSize(sizeBytes).LineCount;

    /// <summary>
    /// The smallest <c>stream-existence-filter-size</c> in bytes whose expected rate for <paramref name="names"/>
    /// names is at most <paramref name="targetRate"/>, at the given k.
    /// </summary>
    public static long SizeFor(double names, double targetRate, int k)
    {
        long low = 1, high = 1;
        while (Expected(names, high, k) > targetRate)
        {
            high *= 2;
            if (high > uint.MaxValue)
            {
                return -1;
            }
        }

        while (low < high)
        {
            long mid = low + ((high - low) / 2);
            if (Expected(names, mid, k) > targetRate)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }

        return (low + 1) * FilterGeometry.LineSize;
    }

    private static double LogFactorial(int n)
    {
        double result = 0;
        for (int i = 2; i <= n; i++)
        {
            result += Math.Log(i);
        }

        return result;
    }
}
