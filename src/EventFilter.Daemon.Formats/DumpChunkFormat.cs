using System.Buffers.Binary;
using System.IO.Hashing;
using System.Runtime.InteropServices;

namespace EventFilter.Daemon.Formats;

/// <summary>What a dump chunk is, from its prefix.</summary>
public enum DumpChunkKind
{
    /// <summary>The first chunk: <see cref="DumpHeader"/>.</summary>
    Header = 1,

    /// <summary>Every later chunk: <see cref="DumpItems"/>.</summary>
    Items = 2,
}

/// <summary>What the first chunk of a dump says: the filter's parameters and how many items, in which chunks, follow.</summary>
/// <param name="DumpId">Ties every chunk to this dump: a hash of the parameters, the item count and the last item's digest.</param>
/// <param name="Parameters">The dumped filter's parameters, which the restored filter gets.</param>
/// <param name="Items">The items the dump holds: every item in the filter's digest log when the dump began.</param>
/// <param name="ChunkItems">Items per chunk; the last chunk holds the rest.</param>
public readonly record struct DumpHeader(ulong DumpId, FilterParameters Parameters, long Items, int ChunkItems)
{
    /// <summary>The number of item chunks after the header chunk.</summary>
    public long Chunks => (Items + ChunkItems - 1) / ChunkItems;

    /// <summary>The iterator BF.SCANDUMP answers with this header chunk; item chunk k's is this plus k + 1.</summary>
    public long Iterator => DumpChunkFormat.IteratorOf(Items, 0);
}

/// <summary>One chunk of items: where it sits in the dump, the digest of the item before it, and its digests.</summary>
public readonly ref struct DumpItems(ulong dumpId, long chunk, long first, ulong previous, ReadOnlySpan<ulong> digests)
{
    /// <summary>The dump the chunk belongs to (<see cref="DumpHeader.DumpId"/>).</summary>
    public ulong DumpId { get; } = dumpId;

    /// <summary>The chunk's index, from 0.</summary>
    public long Chunk { get; } = chunk;

    /// <summary>The index of its first item in the filter's digest log.</summary>
    public long First { get; } = first;

    /// <summary>The digest of item <see cref="First"/> - 1 (0 for the first chunk): the loader checks it against its last.</summary>
    public ulong Previous { get; } = previous;

    /// <summary>The items' digests, in log order.</summary>
    public ReadOnlySpan<ulong> Digests { get; } = digests;
}

/// <summary>
/// The chunks BF.SCANDUMP answers and BF.LOADCHUNK takes (docs/file-format.md, "Dump chunks"), all little-endian.
/// Every chunk starts with "EFBFDUMP", the version (int32), the kind (int32: 1 header, 2 items) and the dump id
/// (uint64), and ends with an XxHash3 (64-bit) of every byte before it. A header chunk carries the 40-byte digest-log
/// header of the filter's parameters (<see cref="DigestLogFormat"/>), the item count (int64) and the items per chunk
/// (int32, then 4 zero bytes). An items chunk carries its index (int64), its first item's index (int64), its count
/// (int32, then 4 zero bytes), the previous item's digest (uint64) and the digests. The iterator that goes with a
/// chunk is (items + 1) * 2^24 plus 0 for the header and k + 1 for item chunk k, so that BF.SCANDUMP needs no state.
/// </summary>
public static class DumpChunkFormat
{
    /// <summary>Items per chunk eventfilterd dumps: 512 KiB of digests, under the daemon's 1 MiB argument limit.</summary>
    public const int DefaultChunkItems = 65536;

    /// <summary>The most items one chunk may hold, whoever wrote it.</summary>
    public const int MaxChunkItems = 1 << 16;

    /// <summary>The most items a dump can describe: the iterator keeps 39 bits for the count.</summary>
    public const long MaxItems = (1L << 39) - 2;

    /// <summary>The most chunks a dump can have: the iterator keeps 24 bits for the chunk.</summary>
    public const long MaxChunks = (1L << 24) - 2;

    /// <summary>The length of a header chunk.</summary>
    public const int HeaderChunkLength = PrefixLength + DigestLogFormat.HeaderLength + 16 + ChecksumLength;

    /// <summary>The length of an items chunk's fields before its digests.</summary>
    public const int ItemsPrefixLength = PrefixLength + 32;

    private const int Version = 1;
    private const int PrefixLength = 24;
    private const int ChecksumLength = sizeof(ulong);
    private const int ChunkBits = 24;

    private static ReadOnlySpan<byte> Magic => "EFBFDUMP"u8;

    /// <summary>The length of an items chunk of <paramref name="count"/> digests.</summary>
    public static int ItemsChunkLength(int count) => ItemsPrefixLength + (count * sizeof(ulong)) + ChecksumLength;

    /// <summary>The iterator that goes with chunk <paramref name="chunk"/> (0 the header, k + 1 item chunk k) of a dump of <paramref name="items"/> items.</summary>
    public static long IteratorOf(long items, long chunk) => ((items + 1) << ChunkBits) | chunk;

    /// <summary>Splits an iterator BF.SCANDUMP answered: the dump's item count and the next chunk to send; false when it cannot be one.</summary>
    public static bool TryReadIterator(long iterator, out long items, out long nextChunk)
    {
        items = (iterator >> ChunkBits) - 1;
        nextChunk = iterator & ((1L << ChunkBits) - 1);
        return iterator > 0 && items >= 0 && nextChunk <= MaxChunks + 1;
    }

    /// <summary>The dump id of a filter with <paramref name="parameters"/> whose last dumped item's digest is <paramref name="last"/> (0 when empty).</summary>
    public static ulong DumpIdOf(FilterParameters parameters, long items, ulong last)
    {
        Span<byte> bytes = stackalloc byte[DigestLogFormat.HeaderLength + 16];
        DigestLogFormat.WriteHeader(bytes, parameters);
        BinaryPrimitives.WriteInt64LittleEndian(bytes[DigestLogFormat.HeaderLength..], items);
        BinaryPrimitives.WriteUInt64LittleEndian(bytes[(DigestLogFormat.HeaderLength + 8)..], last);
        return XxHash3.HashToUInt64(bytes);
    }

    /// <summary>Writes the header chunk into <paramref name="chunk"/> (<see cref="HeaderChunkLength"/> bytes).</summary>
    public static void WriteHeader(Span<byte> chunk, DumpHeader header)
    {
        WritePrefix(chunk, DumpChunkKind.Header, header.DumpId);
        Span<byte> body = chunk[PrefixLength..];
        DigestLogFormat.WriteHeader(body, header.Parameters);
        BinaryPrimitives.WriteInt64LittleEndian(body[DigestLogFormat.HeaderLength..], header.Items);
        BinaryPrimitives.WriteInt32LittleEndian(body[(DigestLogFormat.HeaderLength + 8)..], header.ChunkItems);
        BinaryPrimitives.WriteInt32LittleEndian(body[(DigestLogFormat.HeaderLength + 12)..], 0);
        Seal(chunk[..HeaderChunkLength]);
    }

    /// <summary>
    /// Writes an items chunk of <paramref name="count"/> digests into <paramref name="chunk"/>, whose digests the
    /// caller has put at <see cref="ItemsPrefixLength"/> already (read straight from the log); returns its length.
    /// </summary>
    public static int SealItems(Span<byte> chunk, ulong dumpId, long index, long first, int count, ulong previous)
    {
        WritePrefix(chunk, DumpChunkKind.Items, dumpId);
        BinaryPrimitives.WriteInt64LittleEndian(chunk[24..], index);
        BinaryPrimitives.WriteInt64LittleEndian(chunk[32..], first);
        BinaryPrimitives.WriteInt32LittleEndian(chunk[40..], count);
        BinaryPrimitives.WriteInt32LittleEndian(chunk[44..], 0);
        BinaryPrimitives.WriteUInt64LittleEndian(chunk[48..], previous);
        int length = ItemsChunkLength(count);
        Seal(chunk[..length]);
        return length;
    }

    /// <summary>The digests' place in an items chunk of <paramref name="count"/>, for the caller to fill before <see cref="SealItems"/>.</summary>
    public static Span<ulong> DigestsOf(Span<byte> chunk, int count) =>
        MemoryMarshal.Cast<byte, ulong>(chunk.Slice(ItemsPrefixLength, count * sizeof(ulong)));

    /// <summary>
    /// Checks a chunk's frame: magic, version, kind, length and checksum. On false, <paramref name="problem"/> says
    /// what is wrong in a few words ("fails its checksum"), for the error reply.
    /// </summary>
    public static bool TryReadKind(ReadOnlySpan<byte> chunk, out DumpChunkKind kind, out string? problem)
    {
        kind = chunk.Length >= PrefixLength ? (DumpChunkKind)BinaryPrimitives.ReadInt32LittleEndian(chunk[12..]) : default;
        problem = FrameProblem(chunk, kind);
        if (problem is null && BinaryPrimitives.ReadUInt64LittleEndian(chunk[^ChecksumLength..]) != XxHash3.HashToUInt64(chunk[..^ChecksumLength]))
        {
            problem = "it fails its checksum (damaged)";
        }

        return problem is null;
    }

    /// <summary>Reads a header chunk <see cref="TryReadKind"/> passed; false, with the problem, when its fields are out of range.</summary>
    public static bool TryReadHeader(ReadOnlySpan<byte> chunk, out DumpHeader header, out string? problem)
    {
        header = default;
        ReadOnlySpan<byte> body = chunk[PrefixLength..];
        if (!DigestLogFormat.TryReadHeader(body, out FilterParameters parameters))
        {
            problem = "its filter parameters are of another version or fail their checksum";
            return false;
        }

        long items = BinaryPrimitives.ReadInt64LittleEndian(body[DigestLogFormat.HeaderLength..]);
        int chunkItems = BinaryPrimitives.ReadInt32LittleEndian(body[(DigestLogFormat.HeaderLength + 8)..]);
        header = new DumpHeader(BinaryPrimitives.ReadUInt64LittleEndian(chunk[16..]), parameters, items, chunkItems);
        problem = items is < 0 or > MaxItems ? $"its item count {items} is out of range"
            : chunkItems is <= 0 or > MaxChunkItems ? $"its chunk size {chunkItems} is out of range"
            : header.Chunks > MaxChunks ? $"its {header.Chunks} chunks are more than a dump can have"
            : null;
        return problem is null;
    }

    /// <summary>Reads an items chunk <see cref="TryReadKind"/> passed.</summary>
    public static DumpItems ReadItems(ReadOnlySpan<byte> chunk) => new(
        BinaryPrimitives.ReadUInt64LittleEndian(chunk[16..]),
        BinaryPrimitives.ReadInt64LittleEndian(chunk[24..]),
        BinaryPrimitives.ReadInt64LittleEndian(chunk[32..]),
        BinaryPrimitives.ReadUInt64LittleEndian(chunk[48..]),
        MemoryMarshal.Cast<byte, ulong>(chunk.Slice(ItemsPrefixLength, ItemCount(chunk) * sizeof(ulong))));

    private static int ItemCount(ReadOnlySpan<byte> chunk) => BinaryPrimitives.ReadInt32LittleEndian(chunk[40..]);

    private static string? FrameProblem(ReadOnlySpan<byte> chunk, DumpChunkKind kind)
    {
        if (chunk.Length < PrefixLength || !chunk[..8].SequenceEqual(Magic))
        {
            return "it is not an eventfilterd dump chunk";
        }

        int version = BinaryPrimitives.ReadInt32LittleEndian(chunk[8..]);
        if (version != Version)
        {
            return $"it is a dump chunk of version {version}; this eventfilterd reads version {Version}";
        }

        if (kind == DumpChunkKind.Header)
        {
            return chunk.Length == HeaderChunkLength ? null : Truncated(chunk.Length, HeaderChunkLength);
        }

        if (kind != DumpChunkKind.Items)
        {
            return $"its kind {(int)kind} is neither a header (1) nor items (2)";
        }

        if (chunk.Length < ItemsChunkLength(0))
        {
            return Truncated(chunk.Length, ItemsChunkLength(0));
        }

        int count = ItemCount(chunk);
        return count is <= 0 or > MaxChunkItems ? $"its item count {count} is out of range (damaged)"
            : chunk.Length != ItemsChunkLength(count) ? Truncated(chunk.Length, ItemsChunkLength(count))
            : null;
    }

    private static string Truncated(int length, int expected) => $"it is {length} bytes where its header says {expected} (truncated or damaged)";

    private static void WritePrefix(Span<byte> chunk, DumpChunkKind kind, ulong dumpId)
    {
        Magic.CopyTo(chunk);
        BinaryPrimitives.WriteInt32LittleEndian(chunk[8..], Version);
        BinaryPrimitives.WriteInt32LittleEndian(chunk[12..], (int)kind);
        BinaryPrimitives.WriteUInt64LittleEndian(chunk[16..], dumpId);
    }

    private static void Seal(Span<byte> chunk) =>
        BinaryPrimitives.WriteUInt64LittleEndian(chunk[^ChecksumLength..], XxHash3.HashToUInt64(chunk[..^ChecksumLength]));
}
