namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// How full the benchmark filters are: the load a filter is sized for, one name per byte of
/// <c>stream-existence-filter-size</c> (8 bits per name, EventStoreDB's sizing rule). Lookups and adds are measured
/// at this load, so a miss probes as many bits as it would in production, not one bit of an empty line.
/// </summary>
public static class DesignLoad
{
    public static long Names(long sizeBytes) => sizeBytes;

    /// <summary>Names to fill with random hashes so that, with the hit pool added, the filter is at design load.</summary>
    public static long FillerNames(long sizeBytes, int hitNames) => Math.Max(0, Names(sizeBytes) - hitNames);

    /// <summary>The fraction of bits a classic filter with k probes has set after <paramref name="names"/> names.</summary>
    public static double ClassicFillRatio(double names, double bits, int k) => 1 - Math.Exp(-k * names / bits);
}
