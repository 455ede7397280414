using System.Buffers.Binary;
using System.IO.Hashing;

namespace EventFilter.Daemon.Formats;

/// <summary>
/// The bytes of a digest log (docs/daemon.md, "Files"): a 40-byte header, then one 8-byte digest per item, all
/// little-endian. The header is "EFDIGEST", the version (int32: the filter's <see cref="FilterParameters.Sizing"/>, 1 or 2), the expansion (int32), the capacity (int64), the
/// error rate (float64), non-scaling (int32, 0 or 1) and a CRC-32 of the 36 bytes before it. A position in the log
/// (what a layer's checkpoint claims) is a byte offset. eventfilterd writes it; <c>eventfilter inspect DIR</c> reads it.
/// </summary>
public static class DigestLogFormat
{
    /// <summary>The length of the header, which holds the filter's <see cref="FilterParameters"/>.</summary>
    public const int HeaderLength = 40;

    /// <summary>The length of one item: its 8-byte digest.</summary>
    public const int RecordLength = sizeof(ulong);

    private static ReadOnlySpan<byte> Magic => "EFDIGEST"u8;

    /// <summary>Writes the header for <paramref name="parameters"/> into the first <see cref="HeaderLength"/> bytes of <paramref name="header"/>.</summary>
    public static void WriteHeader(Span<byte> header, FilterParameters parameters)
    {
        Magic.CopyTo(header);
        BinaryPrimitives.WriteInt32LittleEndian(header[8..], parameters.Sizing);
        BinaryPrimitives.WriteInt32LittleEndian(header[12..], parameters.Expansion);
        BinaryPrimitives.WriteInt64LittleEndian(header[16..], parameters.Capacity);
        BinaryPrimitives.WriteDoubleLittleEndian(header[24..], parameters.ErrorRate);
        BinaryPrimitives.WriteInt32LittleEndian(header[32..], parameters.NonScaling ? 1 : 0);
        BinaryPrimitives.WriteUInt32LittleEndian(header[36..], Crc32.HashToUInt32(header[..36]));
    }

    /// <summary>False when <paramref name="header"/> is short, of another format or version, or fails its checksum.</summary>
    public static bool TryReadHeader(ReadOnlySpan<byte> header, out FilterParameters parameters)
    {
        parameters = default;
        if (header.Length < HeaderLength || !header[..8].SequenceEqual(Magic)
            || BinaryPrimitives.ReadInt32LittleEndian(header[8..]) is not (FilterParameters.OneLineSizing or FilterParameters.SpreadSizing)
            || BinaryPrimitives.ReadUInt32LittleEndian(header[36..]) != Crc32.HashToUInt32(header[..36]))
        {
            return false;
        }

        parameters = new FilterParameters(
            BinaryPrimitives.ReadInt64LittleEndian(header[16..]),
            BinaryPrimitives.ReadDoubleLittleEndian(header[24..]),
            BinaryPrimitives.ReadInt32LittleEndian(header[12..]),
            BinaryPrimitives.ReadInt32LittleEndian(header[32..]) != 0,
            BinaryPrimitives.ReadInt32LittleEndian(header[8..]));
        return true;
    }

    /// <summary>
    /// True when a log's first bytes (up to <see cref="HeaderLength"/>) show a create that never reached the disk: fewer
    /// bytes than a header, or a header of zeros. A create is made durable only at the next sync tick under
    /// --log-sync periodic, so power loss can leave either; a header with any non-zero byte that fails
    /// <see cref="TryReadHeader"/> is damage instead (docs/daemon-design.md, "Durability").
    /// </summary>
    public static bool IsUnwritten(ReadOnlySpan<byte> firstBytes) =>
        firstBytes.Length < HeaderLength || !firstBytes[..HeaderLength].ContainsAnyExcept((byte)0);

    /// <summary>The position of the item with index <paramref name="index"/>, which is also the end of the items before it.</summary>
    public static long PositionOf(long index) => HeaderLength + (index * RecordLength);

    /// <summary>Whole items in a log of <paramref name="length"/> bytes; what is left after them is a torn append.</summary>
    public static long RecordsIn(long length) => Math.Max(0, length - HeaderLength) / RecordLength;
}
