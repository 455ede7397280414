using System.IO.Hashing;

namespace EventFilter.Daemon.Filters;

/// <summary>
/// Filter keys compared by their bytes, and looked up by a span of them without copying it (the hot path's
/// <see cref="FilterMap.Find(ReadOnlySpan{byte})"/>).
/// </summary>
internal sealed class KeyComparer : IEqualityComparer<byte[]>, IAlternateEqualityComparer<ReadOnlySpan<byte>, byte[]>
{
    // Seeded per process, as string hashing is: a client cannot choose keys that all land in one bucket.
    private static readonly long Seed = Random.Shared.NextInt64();

    public static KeyComparer Instance { get; } = new();

    public bool Equals(byte[]? x, byte[]? y) => x.AsSpan().SequenceEqual(y);

    public int GetHashCode(byte[] obj) => GetHashCode(obj.AsSpan());

    public bool Equals(ReadOnlySpan<byte> alternate, byte[] other) => alternate.SequenceEqual(other);

    public int GetHashCode(ReadOnlySpan<byte> alternate) => (int)XxHash3.HashToUInt64(alternate, Seed);

    public byte[] Create(ReadOnlySpan<byte> alternate) => alternate.ToArray();
}
