using System.Buffers.Binary;
using EventFilter.Errors;
using EventFilter.Format;

namespace EventFilter;

/// <summary>
/// The first 64-byte line of a filter file. All integers little-endian. See docs/file-format.md, section "Header".
/// </summary>
public sealed class FilterHeader
{
    internal FilterHeader(ushort version, ushort k, long sizeBytes, uint lineCount, ulong seed, Guid fileId, ushort linesPerKey = 1)
    {
        Version = version;
        K = k;
        LinesPerKey = linesPerKey;
        SizeBytes = sizeBytes;
        LineCount = lineCount;
        Seed = seed;
        FileId = fileId;
    }

    /// <summary>
    /// Format version: <see cref="CurrentVersion"/> for one line per key, <see cref="SpreadVersion"/> for more, both
    /// with the size counted as the file's length; <see cref="FilterBitsVersion"/> when the size counts filter bits.
    /// </summary>
    public ushort Version { get; }

    /// <summary>Bits set per name, divided over <see cref="LinesPerKey"/> lines.</summary>
    public ushort K { get; }

    /// <summary>The lines each name's bits are spread over, 1 to <see cref="FilterFileOptions.MaxLinesPerKey"/>; 1 in a version 1 file.</summary>
    public ushort LinesPerKey { get; }

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

    /// <summary>The format version of a file with one line per key: every file that existed before spread keys did.</summary>
    internal const ushort CurrentVersion = 1;

    /// <summary>The format version of a file whose keys spread over more than one line; bytes 12-13 hold the line count.</summary>
    internal const ushort SpreadVersion = 2;

    /// <summary>
    /// The format version of a file whose size counts filter bits (docs/file-format.md, "Size"); bytes 12-13 hold the
    /// lines per key, any of 1-4.
    /// </summary>
    internal const ushort FilterBitsVersion = 3;

    /// <summary>
    /// The version a file is written with: the lowest that describes it, so a reader of the older versions refuses a
    /// spread or bit-sized file rather than misreading its geometry.
    /// </summary>
    internal static ushort VersionFor(int linesPerKey, bool sizeCountsFilterBits) =>
        sizeCountsFilterBits ? FilterBitsVersion : linesPerKey == 1 ? CurrentVersion : SpreadVersion;

    /// <summary>True when <see cref="SizeBytes"/> counts filter bits, as EventStoreDB's setting does; false in versions 1 and 2.</summary>
    internal bool SizeCountsFilterBits => Version == FilterBitsVersion;

    /// <summary>The most probes a header may ask for; more only adds false positives.</summary>
    internal const int MaxK = 32;

    /// <summary>The geometry the header describes.</summary>
    internal FilterGeometry Geometry => FilterGeometry.For(SizeBytes, SizeCountsFilterBits);

    /// <summary>Writes the header, checksum included, into the first 64 bytes of <paramref name="destination"/>.</summary>
    internal void WriteTo(Span<byte> destination)
    {
        Span<byte> line = destination[..FilterGeometry.LineSize];
        line.Clear();
        Magic.CopyTo(line);
        BinaryPrimitives.WriteUInt16LittleEndian(line[8..], Version);
        BinaryPrimitives.WriteUInt16LittleEndian(line[10..], K);
        if (Version != CurrentVersion)
        {
            BinaryPrimitives.WriteUInt16LittleEndian(line[12..], LinesPerKey);
        }

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
        if (version is not (CurrentVersion or SpreadVersion or FilterBitsVersion))
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.UnsupportedVersion, $"format version {version} is not supported (this build reads versions {CurrentVersion} to {FilterBitsVersion})");
        }

        ushort k = BinaryPrimitives.ReadUInt16LittleEndian(line[10..]);
        long size = BinaryPrimitives.ReadInt64LittleEndian(line[16..]);
        ulong lines = BinaryPrimitives.ReadUInt64LittleEndian(line[24..]);
        if (k is 0 or > MaxK)
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadField, $"k is {k}, outside 1-{MaxK}");
        }

        if (!SizeAgrees(version == FilterBitsVersion, size, lines))
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadField, $"size {size} bytes and line count {lines} do not agree");
        }

        // Version 1 keeps bytes 12-15 reserved, whatever they hold: its keys live in one line.
        ushort linesPerKey = version != CurrentVersion ? BinaryPrimitives.ReadUInt16LittleEndian(line[12..]) : (ushort)1;
        if (linesPerKey is 0 or > FilterFileOptions.MaxLinesPerKey || linesPerKey > k || linesPerKey > lines)
        {
            throw new InvalidFilterHeaderException(path, HeaderProblem.BadField, $"lines per key is {linesPerKey}, outside 1-{FilterFileOptions.MaxLinesPerKey} or above k ({k}) or the line count ({lines})");
        }

        return new FilterHeader(version, k, size, (uint)lines, BinaryPrimitives.ReadUInt64LittleEndian(line[32..]), new Guid(line[40..56]), linesPerKey);
    }

    /// <summary>Whether the recorded size is in range for its meaning and gives the recorded line count.</summary>
    private static bool SizeAgrees(bool sizeCountsFilterBits, long size, ulong lines)
    {
        long max = sizeCountsFilterBits ? FilterGeometry.MaxFilterBitsSizeBytes : FilterGeometry.MaxSizeBytes;
        return size >= FilterGeometry.MinSizeBytes && size <= max && lines == FilterGeometry.For(size, sizeCountsFilterBits).LineCount;
    }
}
