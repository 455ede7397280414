using System.Buffers.Binary;
using EventFilter.Format;

namespace EventFilter;

/// <summary>
/// The first 64-byte line of a filter file. All integers little-endian. See docs/file-format.md, section "Header".
/// </summary>
public sealed class FilterHeader
{
    internal FilterHeader(ushort version, ushort k, long sizeBytes, uint lineCount, ulong seed, Guid fileId)
    {
        Version = version;
        K = k;
        SizeBytes = sizeBytes;
        LineCount = lineCount;
        Seed = seed;
        FileId = fileId;
    }

    /// <summary>Format version; this library reads and writes <see cref="CurrentVersion"/>.</summary>
    public ushort Version { get; }

    /// <summary>Bits set per name, all inside one line.</summary>
    public ushort K { get; }

    /// <summary>The configured <c>stream-existence-filter-size</c> the file was made for.</summary>
    public long SizeBytes { get; }

    /// <summary>Data lines after the header.</summary>
    public uint LineCount { get; }

    /// <summary>Seed of the XXH3-64 key hash.</summary>
    public ulong Seed { get; }

    /// <summary>Random identity of this file; a checkpoint names it, so a checkpoint never applies to a rebuilt file.</summary>
    public Guid FileId { get; }

    /// <summary>"EVFILTER" in ASCII: bytes 0-7 of every filter file.</summary>
    internal static ReadOnlySpan<byte> Magic => "EVFILTER"u8;

    /// <summary>The format version this library writes.</summary>
    internal const ushort CurrentVersion = 1;

    /// <summary>The most probes a header may ask for; more only adds false positives.</summary>
    internal const int MaxK = 32;

    /// <summary>The geometry the header describes.</summary>
    internal FilterGeometry Geometry => FilterGeometry.FromSize(SizeBytes);

    /// <summary>Writes the header, checksum included, into the first 64 bytes of <paramref name="destination"/>.</summary>
    internal void WriteTo(Span<byte> destination)
    {
        Span<byte> line = destination[..FilterGeometry.LineSize];
        line.Clear();
        Magic.CopyTo(line);
        BinaryPrimitives.WriteUInt16LittleEndian(line[8..], Version);
        BinaryPrimitives.WriteUInt16LittleEndian(line[10..], K);
        BinaryPrimitives.WriteInt64LittleEndian(line[16..], SizeBytes);
        BinaryPrimitives.WriteUInt64LittleEndian(line[24..], LineCount);
        BinaryPrimitives.WriteUInt64LittleEndian(line[32..], Seed);
        FileId.TryWriteBytes(line[40..56]);
        BinaryPrimitives.WriteUInt32LittleEndian(line[60..], LineChecksum.Compute(line));
    }

    /// <summary>Reads and validates a header. <paramref name="path"/> only names the file in errors.</summary>
    /// <exception cref="InvalidFilterHeaderException">Bad magic, version, checksum or fields.</exception>
    internal static FilterHeader Read(ReadOnlySpan<byte> source, string path)
    {
        if (source.Length < FilterGeometry.LineSize)
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.Truncated, $"the file is {source.Length} bytes, shorter than the 64-byte header");
        }

        ReadOnlySpan<byte> line = source[..FilterGeometry.LineSize];
        if (!line[..8].SequenceEqual(Magic))
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadMagic, "it does not start with the magic \"EVFILTER\"; it is not a filter file");
        }

        uint stored = LineChecksum.ReadStored(line);
        uint actual = LineChecksum.Compute(line);
        if (stored != actual)
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadChecksum, $"header checksum is 0x{stored:x8} but the header hashes to 0x{actual:x8}");
        }

        ushort version = BinaryPrimitives.ReadUInt16LittleEndian(line[8..]);
        if (version != CurrentVersion)
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.UnsupportedVersion, $"format version {version} is not supported (this build reads version {CurrentVersion})");
        }

        ushort k = BinaryPrimitives.ReadUInt16LittleEndian(line[10..]);
        long size = BinaryPrimitives.ReadInt64LittleEndian(line[16..]);
        ulong lines = BinaryPrimitives.ReadUInt64LittleEndian(line[24..]);
        if (k is 0 or > MaxK)
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadField, $"k is {k}, outside 1-{MaxK}");
        }

        if (size < FilterGeometry.MinSizeBytes || size > FilterGeometry.MaxSizeBytes || lines != (ulong)(size / FilterGeometry.LineSize - 1))
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadField, $"size {size} bytes and line count {lines} do not agree");
        }

        return new FilterHeader(version, k, size, (uint)lines, BinaryPrimitives.ReadUInt64LittleEndian(line[32..]), new Guid(line[40..56]));
    }
}
