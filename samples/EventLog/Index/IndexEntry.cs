using System.Buffers.Binary;

namespace EventLog.Index;

/// <summary>
/// One index entry: (stream hash, event number) → log position, 24 bytes on disk, little-endian. Index files hold them
/// sorted by hash, then event number, so a stream's entries lie together and its newest is the last of them.
/// </summary>
internal readonly record struct IndexEntry(ulong Hash, long EventNumber, long Position) : IComparable<IndexEntry>
{
    /// <summary>Bytes per entry on disk.</summary>
    public const int Size = 24;

    /// <summary>Orders by the key (hash, event number); the position breaks ties only between colliding streams.</summary>
    public int CompareTo(IndexEntry other)
    {
        int byKey = CompareKey(Hash, EventNumber, other.Hash, other.EventNumber);
        return byKey != 0 ? byKey : Position.CompareTo(other.Position);
    }

    /// <summary>Compares two keys.</summary>
    public static int CompareKey(ulong hash, long eventNumber, ulong otherHash, long otherEventNumber) =>
        hash != otherHash ? hash.CompareTo(otherHash) : eventNumber.CompareTo(otherEventNumber);

    /// <summary>Writes the entry's 24 bytes.</summary>
    public void WriteTo(Span<byte> destination)
    {
        BinaryPrimitives.WriteUInt64LittleEndian(destination, Hash);
        BinaryPrimitives.WriteInt64LittleEndian(destination[8..], EventNumber);
        BinaryPrimitives.WriteInt64LittleEndian(destination[16..], Position);
    }

    /// <summary>Reads an entry from 24 bytes.</summary>
    public static IndexEntry Read(ReadOnlySpan<byte> source) => new(
        BinaryPrimitives.ReadUInt64LittleEndian(source),
        BinaryPrimitives.ReadInt64LittleEndian(source[8..]),
        BinaryPrimitives.ReadInt64LittleEndian(source[16..]));
}
