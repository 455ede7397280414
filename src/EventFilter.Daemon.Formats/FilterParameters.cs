namespace EventFilter.Daemon.Formats;

/// <summary>
/// What BF.RESERVE fixes for a filter's life: the first layer's capacity and error rate, and how it scales. Layer i
/// holds capacity * expansion^i items at error_rate * 0.5^i, as RedisBloom's scaling filters do, so the whole chain
/// stays below twice the requested rate. A filter's digest log starts with them (<see cref="DigestLogFormat"/>).
/// </summary>
/// <param name="Capacity">The items the first layer holds at <paramref name="ErrorRate"/>.</param>
/// <param name="ErrorRate">The first layer's false-positive rate at <paramref name="Capacity"/> items, in (0, 1).</param>
/// <param name="Expansion">How many times the previous layer's capacity each new layer holds.</param>
/// <param name="NonScaling">True when the filter refuses adds past its first layer instead of growing a new one.</param>
public readonly record struct FilterParameters(long Capacity, double ErrorRate, int Expansion, bool NonScaling)
{
    /// <summary>RedisBloom's tightening ratio: each new layer halves the error rate.</summary>
    public const double TighteningRatio = 0.5;

    /// <summary>No layer file may exceed this; a request that would needs a looser rate or a smaller capacity.</summary>
    public const long MaxLayerBytes = 4L << 30;

    /// <summary>Layers a scaling filter may grow to; RedisBloom's limit is similar.</summary>
    public const int MaxLayers = 32;

    /// <summary>The items layer <paramref name="layer"/> holds: capacity * expansion^layer, capped at <c>long.MaxValue / 2</c>.</summary>
    public long LayerCapacity(int layer)
    {
        double capacity = Capacity * Math.Pow(Expansion, layer);
        return capacity >= long.MaxValue / 2 ? long.MaxValue / 2 : (long)capacity;
    }

    /// <summary>Layer <paramref name="layer"/>'s false-positive rate at its capacity: error_rate * 0.5^layer.</summary>
    public double LayerErrorRate(int layer) => ErrorRate * Math.Pow(TighteningRatio, layer);

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
    /// k that makes it smallest (FalsePositiveModel, docs/design.md "Choosing k"); null when that exceeds <see cref="MaxLayerBytes"/>.
    /// </summary>
    public FilterFileOptions? LayerOptions(int layer)
    {
        (long Items, double Rate) key = (LayerCapacity(layer), LayerErrorRate(layer));
        if (Sizes.TryGetValue(key, out FilterFileOptions? known))
        {
            return known;
        }

        FilterFileOptions? options = Size(key.Items, key.Rate);
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
    private static readonly System.Collections.Concurrent.ConcurrentDictionary<(long Items, double Rate), FilterFileOptions?> Sizes = new();

    private static FilterFileOptions? Size(double items, double rate)
    {

        // The classic filter's size is a lower bound on the blocked one's: refuse early what cannot fit. The search
        // below starts from it too, because the exact model costs O(names per line) per evaluation.
        double classicLines = -items * Math.Log(rate) / (Math.Log(2) * Math.Log(2)) / BitsPerLine;
        if (classicLines * LineBytes > MaxLayerBytes)
        {
            return null;
        }

        int classicK = (int)Math.Clamp(Math.Round(-Math.Log2(rate)), 1, FilterFileOptions.MaxK);
        long bestLines = long.MaxValue;
        int bestK = classicK;
        for (int k = Math.Max(1, classicK - 3); k <= Math.Min(FilterFileOptions.MaxK, classicK + 3); k++)
        {
            long lines = LinesFor(items, rate, k, Math.Max(1, (long)classicLines));
            if (lines < bestLines)
            {
                (bestLines, bestK) = (lines, k);
            }
        }

        long size = (bestLines + 1) * LineBytes;
        return size > MaxLayerBytes ? null : new FilterFileOptions { SizeBytes = Math.Max(size, FilterFileOptions.MinSizeBytes), K = bestK };
    }

    /// <summary>The fewest lines whose expected rate at <paramref name="items"/> is at most <paramref name="rate"/>; long.MaxValue past the limit.</summary>
    private static long LinesFor(double items, double rate, int k, long from)
    {
        long limit = MaxLayerBytes / LineBytes;
        long high = from;
        while (FalsePositiveModel.Expected(items, high, k) > rate)
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
            if (FalsePositiveModel.Expected(items, mid, k) > rate)
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
