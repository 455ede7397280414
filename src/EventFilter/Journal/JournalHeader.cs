using System.Buffers.Binary;
using EventFilter.Format;

namespace EventFilter.Journal;

/// <summary>
/// The first 64 bytes of a journal file: which filter file it belongs to and which generation it is.
/// See docs/file-format.md, section "Journal files".
/// </summary>
/// <param name="Generation">The number in the file's name; generations are replayed in ascending order.</param>
/// <param name="FilterFileId">The <see cref="FilterHeader.FileId"/> of the filter whose changes it holds.</param>
internal readonly record struct JournalHeader(ulong Generation, Guid FilterFileId)
{
    public const int Length = FilterGeometry.LineSize;
    public const ushort CurrentVersion = 1;

    /// <summary>"EVFJOURN" in ASCII: bytes 0-7 of every journal file.</summary>
    public static ReadOnlySpan<byte> Magic => "EVFJOURN"u8;

    /// <summary>Writes the header and returns its checksum, which salts every record checksum of the file.</summary>
    public uint WriteTo(Span<byte> destination)
    {
        Span<byte> header = destination[..Length];
        header.Clear();
        Magic.CopyTo(header);
        BinaryPrimitives.WriteUInt16LittleEndian(header[8..], CurrentVersion);
        BinaryPrimitives.WriteUInt64LittleEndian(header[16..], Generation);
        FilterFileId.TryWriteBytes(header[24..40]);
        uint checksum = LineChecksum.Compute(header);
        BinaryPrimitives.WriteUInt32LittleEndian(header[60..], checksum);
        return checksum;
    }

    /// <summary>Parses a header; returns null with <paramref name="problem"/> set when it is not a valid one.</summary>
    public static JournalHeader? TryRead(ReadOnlySpan<byte> source, out uint checksum, out string? problem)
    {
        checksum = 0;
        if (source.Length < Length)
        {
            problem = $"it is {source.Length} bytes long, shorter than the {Length}-byte header";
            return null;
        }

        ReadOnlySpan<byte> header = source[..Length];
        if (!header[..8].SequenceEqual(Magic))
        {
            problem = "it does not start with the magic \"EVFJOURN\"";
            return null;
        }

        checksum = LineChecksum.ReadStored(header);
        if (checksum != LineChecksum.Compute(header))
        {
            problem = "its header checksum does not match";
            return null;
        }

        ushort version = BinaryPrimitives.ReadUInt16LittleEndian(header[8..]);
        if (version != CurrentVersion)
        {
            problem = $"format version {version} is not supported";
            return null;
        }

        problem = null;
        return new JournalHeader(BinaryPrimitives.ReadUInt64LittleEndian(header[16..]), new Guid(header[24..40]));
    }
}
