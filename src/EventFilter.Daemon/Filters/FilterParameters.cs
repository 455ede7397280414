using EventFilter.Format;
using EventFilter.Statistics;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// What BF.RESERVE fixes for a filter's life: the first layer's capacity and error rate, and how it scales. Layer i
/// holds capacity * expansion^i items at error_rate * 0.5^i, as RedisBloom's scaling filters do, so the whole chain
/// stays below twice the requested rate.
/// </summary>
internal readonly record struct FilterParameters(long Capacity, double ErrorRate, int Expansion, bool NonScaling)
{
    /// <summary>RedisBloom's tightening ratio: each new layer halves the error rate.</summary>
    public const double TighteningRatio = 0.5;

    /// <summary>No layer file may exceed this; a request that would needs a looser rate or a smaller capacity.</summary>
    public const long MaxLayerBytes = 4L << 30;

    /// <summary>Layers a scaling filter may grow to; RedisBloom's limit is similar.</summary>
    public const int MaxLayers = 32;

    public long LayerCapacity(int layer)
    {
        double capacity = Capacity * Math.Pow(Expansion, layer);
        return capacity >= long.MaxValue / 2 ? long.MaxValue / 2 : (long)capacity;
    }

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
        double items = LayerCapacity(layer);
        double rate = LayerErrorRate(layer);
        long bestSize = long.MaxValue;
        int bestK = 1;
        for (int k = 1; k <= FilterHeader.MaxK; k++)
        {
            long size = FalsePositiveModel.SizeFor(items, rate, k);
            if (size > 0 && size < bestSize)
            {
                (bestSize, bestK) = (size, k);
            }
        }

        if (bestSize > MaxLayerBytes)
        {
            return null;
        }

        return new FilterFileOptions { SizeBytes = Math.Max(bestSize, FilterGeometry.MinSizeBytes), K = bestK };
    }
}
