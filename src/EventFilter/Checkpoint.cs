using System.Buffers.Binary;
using EventFilter.Errors;
using EventFilter.Format;

namespace EventFilter;

/// <summary>
/// A durable claim: every stream name in log records up to <see cref="Position"/> is in the filter file whose
/// identity is <see cref="FilterFileId"/>. Stored as one 64-byte record; see docs/file-format.md, section "Checkpoint file".
/// </summary>
public sealed class Checkpoint
{
    internal Checkpoint(long position, Guid filterFileId)
    {
        Position = position;
        FilterFileId = filterFileId;
    }

    /// <summary>The log position covered (exclusive end: records before it are in).</summary>
    public long Position { get; }

    /// <summary>The <see cref="FilterHeader.FileId"/> of the filter the claim is about.</summary>
    public Guid FilterFileId { get; }

    /// <summary>"EVFCHKPT" in ASCII: bytes 0-7 of every checkpoint file.</summary>
    internal static ReadOnlySpan<byte> Magic => "EVFCHKPT"u8;

    /// <summary>The record's length.</summary>
    internal const int Length = FilterGeometry.LineSize;

    /// <summary>The format version this library writes.</summary>
    internal const ushort CurrentVersion = 1;

    /// <summary>Writes the record, checksum included.</summary>
    internal void WriteTo(Span<byte> destination)
    {
        Span<byte> record = destination[..Length];
        record.Clear();
        Magic.CopyTo(record);
        BinaryPrimitives.WriteUInt16LittleEndian(record[8..], CurrentVersion);
        BinaryPrimitives.WriteInt64LittleEndian(record[16..], Position);
        FilterFileId.TryWriteBytes(record[24..40]);
        BinaryPrimitives.WriteUInt32LittleEndian(record[60..], LineChecksum.Compute(record));
    }

    /// <summary>Parses a record. <paramref name="path"/> only names the file in errors.</summary>
    /// <exception cref="InvalidCheckpointException">Wrong length, magic, version or checksum, or a negative position.</exception>
    internal static Checkpoint Read(ReadOnlySpan<byte> source, string path)
    {
        if (source.Length != Length)
        {
            throw new InvalidCheckpointException(path, $"it is {source.Length} bytes long, not {Length}");
        }

        if (!source[..8].SequenceEqual(Magic))
        {
            throw new InvalidCheckpointException(path, "it does not start with the magic \"EVFCHKPT\"");
        }

        uint stored = LineChecksum.ReadStored(source);
        uint actual = LineChecksum.Compute(source);
        if (stored != actual)
        {
            throw new InvalidCheckpointException(path, $"its checksum is 0x{stored:x8} but its bytes hash to 0x{actual:x8}");
        }

        ushort version = BinaryPrimitives.ReadUInt16LittleEndian(source[8..]);
        if (version != CurrentVersion)
        {
            throw new InvalidCheckpointException(path, $"format version {version} is not supported");
        }

        long position = BinaryPrimitives.ReadInt64LittleEndian(source[16..]);
        if (position < 0)
        {
            throw new InvalidCheckpointException(path, $"its position {position} is negative");
        }

        return new Checkpoint(position, new Guid(source[24..40]));
    }
}
