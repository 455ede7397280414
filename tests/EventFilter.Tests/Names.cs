namespace EventFilter.Tests;

/// <summary>Deterministic stream names, about 60 bytes like the benchmark keys, so failures reproduce.</summary>
public static class Names
{
    public static string Added(int i) => $"order-{i:D10}-2f1c9a7e-5b3d-4e8a-9c6f-added-stream";

    public static string Absent(int i) => $"order-{i:D10}-2f1c9a7e-5b3d-4e8a-9c6f-never-written";

    /// <summary>A filter size giving exactly <paramref name="bitsPerName"/> bits per name for <paramref name="names"/> names.</summary>
    public static long SizeFor(int names, int bitsPerName) => ((long)names * bitsPerName / global::EventFilter.Format.FilterGeometry.BitsPerLine + 1) * global::EventFilter.Format.FilterGeometry.LineSize;
}
