using EventFilter.Format;
using EventFilter.Statistics;

namespace EventFilter;

/// <summary>
/// The exact false-positive model of a blocked Bloom filter with 480-bit lines. Names spread over lines as a Poisson
/// process with mean n / lines; a line holding j names has had j k probes, each a uniform draw from its 480 bits; a query
/// for an absent name lands on such a line and finds all k of its own probes set (<see cref="LineProbes"/>). See
/// docs/design.md, section "False positives".
/// </summary>
public static class FalsePositiveModel
{
    /// <summary>The most lines a filter file has: <see cref="FilterGeometry.MaxSizeBytes"/> on a 64-bit process.</summary>
    private const long MaxLines = uint.MaxValue;

    /// <summary>Where 1 - (all k probes set) is below this, the term counts as its Poisson mass: half a unit in the last place of 1.</summary>
    private const double SaturationSlack = 1.0 / (1L << 53);

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

        // The sum runs over the Poisson terms within 12 standard deviations of the mean, but stops where a line holds so
        // many names that all k probes are set to within double rounding: every term from there on is its Poisson mass
        // alone, so the rest of the window adds 1 minus the mass already summed. The work is bounded by that point
        // (17,616 terms at k = 1, 3,080 at k = 6), however many names per line. The bound uses the expected fill to the
        // k-th power, which is at most the true chance that all k probes are set (Jensen), so it holds for the exact terms.
        double keepClear = Math.Log(1 - (1.0 / FilterGeometry.BitsPerLine));
        double saturated = Math.Ceiling(Math.Log(SaturationSlack / k) / (keepClear * k));
        double spread = (12 * Math.Sqrt(lambda)) + 12;
        double from = Math.Max(0, Math.Floor(lambda - spread));
        double to = Math.Ceiling(lambda + spread);
        double last = Math.Min(to, saturated - 1);
        double sum = 0;
        double mass = 0;
        if (from <= last)
        {
            var probes = new LineProbes(k, stackalloc double[k + 1], stackalloc double[k + 1]);
            double logFactorial = LogFactorial.Of(from);
            for (double j = 0; j <= last; j++)
            {
                if (j >= from)
                {
                    logFactorial += j > from ? Math.Log(j) : 0;
                    double poisson = Math.Exp((j * Math.Log(lambda)) - lambda - logFactorial);
                    sum += poisson * probes.AllSet();
                    mass += poisson;
                }

                probes.AddName();
            }
        }

        return to < saturated ? sum : sum + (1 - mass);
    }

    /// <summary>
    /// Expected false-positive rate after <paramref name="names"/> distinct names when each name's k probes are divided
    /// over <paramref name="linesPerKey"/> distinct lines (docs/design.md, "Lines per key"); the one-line model at 1.
    /// </summary>
    public static double Expected(double names, long lines, int k, int linesPerKey)
    {
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(lines);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(k);
        ArgumentOutOfRangeException.ThrowIfNegativeOrZero(linesPerKey);
        ArgumentOutOfRangeException.ThrowIfGreaterThan(linesPerKey, k);
        return linesPerKey == 1 ? Expected(names, lines, k) : SpreadFalsePositives.Expected(names, lines, k, linesPerKey);
    }

    /// <summary>The classic (unblocked) Bloom filter rate: (1 - e^(-k n / m))^k, for comparison.</summary>
    internal static double Classic(double names, double bits, int k) => Math.Pow(1 - Math.Exp(-k * names / bits), k);

    /// <summary>The k in 1..<paramref name="maxK"/> with the lowest expected rate at <paramref name="bitsPerName"/>.</summary>
    internal static int BestK(double bitsPerName, int maxK = 24)
    {
        const long lines = 1_000_000;
        return BestK(lines * FilterGeometry.BitsPerLine / bitsPerName, lines, maxK);
    }

    /// <summary>The k in 1..<paramref name="maxK"/> with the lowest expected rate for <paramref name="names"/> names in <paramref name="lines"/> lines.</summary>
    internal static int BestK(double names, long lines, int maxK)
    {
        int best = 1;
        double bestRate = Expected(names, lines, best);
        for (int k = 2; k <= maxK; k++)
        {
            double rate = Expected(names, lines, k);
            if (rate < bestRate)
            {
                (best, bestRate) = (k, rate);
            }
        }

        return best;
    }

    /// <summary>
    /// The data lines (of 480 filter bits each) a <see cref="FilterFile"/> whose <see cref="FilterFileOptions.SizeBytes"/>
    /// is <paramref name="sizeBytes"/> holds, the size being the file's length: what <see cref="Expected(double, long, int)"/>
    /// takes for a size (docs/file-format.md). For the <c>stream-existence-filter-size</c> setting, see <see cref="LinesForSetting"/>.
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The size is not a valid file size.</exception>
    public static long LinesFor(long sizeBytes) => FilterGeometry.FromSize(sizeBytes).LineCount;

    /// <summary>
    /// The data lines a new stream-existence filter of <c>stream-existence-filter-size</c> <paramref name="settingBytes"/>
    /// holds: the setting counts filter bits, as EventStoreDB's does, one line per 60 bytes (docs/file-format.md).
    /// </summary>
    /// <exception cref="ArgumentOutOfRangeException">The size is not a valid <c>stream-existence-filter-size</c>.</exception>
    public static long LinesForSetting(long settingBytes) => FilterGeometry.FromFilterBits(settingBytes).LineCount;

    /// <summary>
    /// The smallest <see cref="FilterFileOptions.SizeBytes"/> (the file's length) whose expected rate for
    /// <paramref name="names"/> names is at most <paramref name="targetRate"/>, at the given k; -1 when no file of at
    /// most <see cref="uint.MaxValue"/> lines reaches it. For the <c>stream-existence-filter-size</c> setting, see <see cref="SettingFor"/>.
    /// </summary>
    public static long SizeFor(double names, double targetRate, int k)
    {
        long lines = LeastLines(names, targetRate, k);
        return lines < 0 ? -1 : (lines + 1) * FilterGeometry.LineSize;
    }

    /// <summary>
    /// The smallest <c>stream-existence-filter-size</c> in bytes (counting filter bits) whose expected rate for
    /// <paramref name="names"/> names is at most <paramref name="targetRate"/>, at the given k; -1 when no filter of at
    /// most <see cref="uint.MaxValue"/> lines reaches it.
    /// </summary>
    public static long SettingFor(double names, double targetRate, int k)
    {
        long lines = LeastLines(names, targetRate, k);
        return lines < 0 ? -1 : Math.Max(FilterGeometry.MinSizeBytes, lines * FilterGeometry.BitBytesPerLine);
    }

    /// <summary>The fewest lines whose expected rate is at most the target; -1 when more than <see cref="MaxLines"/> are needed.</summary>
    private static long LeastLines(double names, double targetRate, int k)
    {
        // Start at the classic filter's size for this k, a little below the answer (blocking costs bits), and bracket
        // the answer by doubling or halving from there, so that the model is only evaluated near the answer.
        double classicLines = -k * names / Math.Log(1 - Math.Pow(targetRate, 1.0 / k)) / FilterGeometry.BitsPerLine;
        long high = double.IsNaN(classicLines) ? 1 : (long)Math.Clamp(Math.Ceiling(classicLines), 1, MaxLines);
        long low = high;
        if (Expected(names, high, k) > targetRate)
        {
            do
            {
                low = high;
                if (low == MaxLines)
                {
                    return -1;
                }

                high = Math.Min(MaxLines, low * 2);
            }
            while (Expected(names, high, k) > targetRate);
        }
        else
        {
            do
            {
                high = low;
                if (high == 1)
                {
                    return 1;
                }

                low = high / 2;
            }
            while (Expected(names, low, k) <= targetRate);
        }

        // Here the rate at low lines is above the target and at high lines is not.
        while (high - low > 1)
        {
            long mid = low + ((high - low) / 2);
            if (Expected(names, mid, k) > targetRate)
            {
                low = mid;
            }
            else
            {
                high = mid;
            }
        }

        return high;
    }
}
