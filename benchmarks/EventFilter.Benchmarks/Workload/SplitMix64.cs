namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// A tiny seeded generator of 64-bit values (SplitMix64). Every workload is generated from a fixed seed,
/// so a cached filter file and the names looked up in it always agree across benchmark processes.
/// </summary>
public struct SplitMix64
{
    private ulong _state;

    public SplitMix64(ulong seed) => _state = seed;

    public ulong Next()
    {
        ulong z = _state += 0x9E3779B97F4A7C15;
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EB;
        return z ^ (z >> 31);
    }

    /// <summary>A value in [0, bound), by fastrange; bias is irrelevant at these sizes.</summary>
    public uint NextBelow(uint bound) => (uint)(((Next() >> 32) * bound) >> 32);
}
