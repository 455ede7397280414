namespace EventFilter.Daemon.Formats;

/// <summary>
/// What BF.RESERVE fixes for a filter's life: the first layer's capacity and error rate, how it scales, and the sizing
/// rules its layers were made by. Layer i holds capacity * expansion^i items. Under <see cref="SpreadSizing"/>, a new
/// filter's, a scaling filter's layer i is built for error_rate * 0.5^(i + 1), as RedisBloom's are, so a full chain
/// stays at or below the requested rate, and a non-scaling one's single layer for error_rate; a layer's keys may spread
/// over up to four lines. Under <see cref="OneLineSizing"/>, that of filters made before, layer i is built for
/// error_rate * 0.5^i with one line per key (docs/decisions/spread-keys-and-redisbloom-sizing.md). A filter's digest log starts with
/// them (<see cref="DigestLogFormat"/>).
/// </summary>
/// <param name="Capacity">The items the first layer holds.</param>
/// <param name="ErrorRate">The requested false-positive rate, in (0, 1).</param>
/// <param name="Expansion">How many times the previous layer's capacity each new layer holds.</param>
/// <param name="NonScaling">True when the filter refuses adds past its first layer instead of growing a new one.</param>
/// <param name="Sizing">The sizing rules: <see cref="SpreadSizing"/> for a new filter, <see cref="OneLineSizing"/> for one made before it existed.</param>
public readonly record struct FilterParameters(long Capacity, double ErrorRate, int Expansion, bool NonScaling, int Sizing = FilterParameters.SpreadSizing)
{
    /// <summary>The first rules: layer i at error_rate * 0.5^i, one line per key. Filters made by them keep them.</summary>
    public const int OneLineSizing = 1;

    /// <summary>The rules of new filters: a scaling filter's first layer at half the rate, keys over up to four lines.</summary>
    public const int SpreadSizing = 2;

    /// <summary>RedisBloom's tightening ratio: each new layer halves the error rate.</summary>
    public const double TighteningRatio = 0.5;

    /// <summary>No layer file may exceed this; a request that would needs a looser rate or a smaller capacity.</summary>
    public const long MaxLayerBytes = 4L << 30;

    /// <summary>Layers a scaling filter may grow to; RedisBloom's limit is similar.</summary>
    public const int MaxLayers = 32;

    /// <summary>
    /// The bytes a layer may take beside the standard Bloom filter's -ln(rate) / ln²2 bits per item, which is what
    /// RedisBloom allocates: the fewest lines per key that stay within it are taken (docs/daemon-design.md, "Sizing").
    /// </summary>
    public const double StandardBoundAllowance = 1.10;

    /// <summary>The items layer <paramref name="layer"/> holds: capacity * expansion^layer, capped at <c>long.MaxValue / 2</c>.</summary>
    public long LayerCapacity(int layer)
    {
        double capacity = Capacity * Math.Pow(Expansion, layer);
        return capacity >= long.MaxValue / 2 ? long.MaxValue / 2 : (long)capacity;
    }

    /// <summary>Layer <paramref name="layer"/>'s false-positive rate at its capacity (see the type's summary).</summary>
    public double LayerErrorRate(int layer) =>
        Sizing == OneLineSizing ? ErrorRate * Math.Pow(TighteningRatio, layer)
        : NonScaling ? ErrorRate
        : ErrorRate * Math.Pow(TighteningRatio, layer + 1);

    /// <summary>The most lines per key a layer may take: one under <see cref="OneLineSizing"/>.</summary>
    public int MaxLinesPerKey => Sizing == OneLineSizing ? 1 : FilterFileOptions.MaxLinesPerKey;

    /// <summary>The index of the first item layer <paramref name="layer"/> holds.</summary>
    public long LayerStart(int layer)
    {
        long start = 0;
        for (int i = 0; i < layer; i++)
        {
            start = Math.Min(long.MaxValue / 2, start + LayerCapacity(i));
        }

        return start;
    }

    /// <summary>
    /// The smallest filter file that keeps <see cref="LayerErrorRate"/> at <see cref="LayerCapacity"/> items, with the
    /// k and lines per key that make it smallest (FalsePositiveModel; docs/daemon-design.md, "Sizing"); null when that exceeds
    /// <see cref="MaxLayerBytes"/>.
    /// </summary>
    public FilterFileOptions? LayerOptions(int layer)
    {
        double rate = LayerErrorRate(layer);
        (long Items, double Rate, int MaxLines) key = (LayerCapacity(layer), rate, MaxLinesPerKey);
        if (Sizes.TryGetValue(key, out FilterFileOptions? known))
        {
            return known;
        }

        FilterFileOptions? options = Size(key.Items, key.Rate, key.MaxLines);
        if (Sizes.Count >= MaxSizes)
        {
            Sizes.Clear();
        }

        Sizes[key] = options;
        return options;
    }

    // The search in Size evaluates the exact model some hundred times, and BF.RESERVE (to validate), BF.INFO and the
    // first add each need its answer: its answers are kept, per layer capacity and rate, which a few sets of parameters
    // (the defaults of BF.ADD, an application's own) serve for most filters. Bounded: cleared when full.
    private const int MaxSizes = 1024;

    // A filter file's geometry (docs/file-format.md, "Lines"): 64-byte lines of 480 filter bits, after a header line.
    private const int LineBytes = 64;
    private const int BitsPerLine = 480;
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(long Items, double Rate, int MaxLines), FilterFileOptions?> Sizes = new();

    private static FilterFileOptions? Size(double items, double rate, int maxLinesPerKey)
    {
        // The classic filter's size is a lower bound on the blocked one's: refuse early what cannot fit. The search
        // below starts from it too, because the exact model costs O(names per line) per evaluation.
        double classicLines = -items * Math.Log(rate) / (Math.Log(2) * Math.Log(2)) / BitsPerLine;
        if (classicLines * LineBytes > MaxLayerBytes)
        {
            return null;
        }

        int classicK = (int)Math.Clamp(Math.Round(-Math.Log2(rate)), 1, FilterFileOptions.MaxK);
        Span<(long Lines, int K)> best = stackalloc (long, int)[maxLinesPerKey];

        // Each line per key is a cache miss per lookup: take the fewest that keep the file's data lines (their checksums
        // included, as RedisBloom's size includes its own overhead) within the allowance, else the smallest file. So
        // the search stops at the first number of lines per key that fits.
        double allowedLines = StandardBoundAllowance * classicLines * BitsPerLine / (8.0 * LineBytes);
        long smallest = long.MaxValue;
        int chosen = 0;
        while (chosen < maxLinesPerKey && (chosen == 0 || best[chosen - 1].Lines > allowedLines))
        {
            int linesPerKey = ++chosen;
            best[linesPerKey - 1] = (long.MaxValue, classicK);
            for (int k = Math.Max(linesPerKey, classicK - 3); k <= Math.Min(FilterFileOptions.MaxK, classicK + 3); k++)
            {
                // The rate falls as lines are added: a k whose rate at one line fewer than the best so far is still too
                // high cannot beat it, and one evaluation says so instead of a whole search.
                long bestLines = best[linesPerKey - 1].Lines;
                if (bestLines != long.MaxValue && (bestLines - 1 < linesPerKey || FalsePositiveModel.Expected(items, bestLines - 1, k, linesPerKey) > rate))
                {
                    continue;
                }

                long lines = Math.Max(linesPerKey, LinesFor(items, rate, k, linesPerKey, Math.Max(1, (long)classicLines)));
                if (lines < bestLines)
                {
                    best[linesPerKey - 1] = (lines, k);
                }
            }

            smallest = Math.Min(smallest, best[linesPerKey - 1].Lines);
        }

        if (best[chosen - 1].Lines > allowedLines)
        {
            for (int linesPerKey = maxLinesPerKey; linesPerKey >= 1; linesPerKey--)
            {
                chosen = best[linesPerKey - 1].Lines == smallest ? linesPerKey : chosen;
            }
        }

        if (best[chosen - 1].Lines == long.MaxValue)
        {
            return null;
        }

        long size = (best[chosen - 1].Lines + 1) * LineBytes;
        return size > MaxLayerBytes ? null : new FilterFileOptions { SizeBytes = Math.Max(size, FilterFileOptions.MinSizeBytes), K = best[chosen - 1].K, LinesPerKey = chosen };
    }

    /// <summary>The fewest lines whose expected rate at <paramref name="items"/> is at most <paramref name="rate"/>; long.MaxValue past the limit.</summary>
    private static long LinesFor(double items, double rate, int k, int linesPerKey, long from)
    {
        long limit = MaxLayerBytes / LineBytes;
        long high = from;
        while (FalsePositiveModel.Expected(items, high, k, linesPerKey) > rate)
        {
            if (high >= limit)
            {
                return long.MaxValue;
            }

            high = Math.Min(limit, high + Math.Max(1, high / 4));
        }

        long low = Math.Max(1, high - Math.Max(1, high / 4));
        while (low < high)
        {
            long mid = low + ((high - low) / 2);
            if (FalsePositiveModel.Expected(items, mid, k, linesPerKey) > rate)
            {
                low = mid + 1;
            }
            else
            {
                high = mid;
            }
        }

        return high;
    }
}
