using EventFilter.Hashing;

namespace EventFilter;

/// <summary>
/// The batch forms: hash a chunk of names, prefetching each line as its name is hashed, and probe the chunk while the
/// next one is hashed, so that the cache misses of many names overlap instead of queueing one behind another. The
/// fast path for catch-up and bulk appends.
/// </summary>
public sealed partial class FilterFile
{
    /// <summary>Names hashed per chunk: 512 bytes of hashes on the stack.</summary>
    private const int HashChunk = 64;

    /// <summary>Adds every name.</summary>
    internal void AddBatch(ReadOnlySpan<string> names)
    {
        ThrowIfReadOnly();
        var source = new StringNames(names);
        Pipeline(ref source, add: true, []);
    }

    /// <summary>Answers every name: results[i] is false when names[i] was definitely never added.</summary>
    internal void MightExistBatch(ReadOnlySpan<string> names, Span<bool> results)
    {
        CheckResults(names.Length, results.Length);
        var source = new StringNames(names);
        Pipeline(ref source, add: false, results);
    }

    /// <summary>
    /// Adds UTF-8 names packed back to back in <paramref name="utf8Names"/>; <paramref name="lengths"/>[i] is the
    /// byte length of name i. This is how a log reader hands over a buffer of records without a string per name.
    /// </summary>
    internal void AddBatch(ReadOnlySpan<byte> utf8Names, ReadOnlySpan<int> lengths)
    {
        ThrowIfReadOnly();
        CheckLengths(utf8Names.Length, lengths);
        var source = new PackedNames(utf8Names, lengths);
        Pipeline(ref source, add: true, []);
    }

    /// <summary>
    /// Adds a catch-up's batch through <paramref name="adder"/>: hashed, grouped by line region and added region by
    /// region, on the adder's threads when the batch is large (docs/design.md, "Hot path").
    /// </summary>
    internal void AddBatch(StreamNameBatch batch, Blocked.RegionAdder adder)
    {
        ThrowIfReadOnly();
        adder.Add(_lines, _seed, batch);
    }

    /// <summary>Answers UTF-8 names packed as for <see cref="AddBatch(ReadOnlySpan{byte}, ReadOnlySpan{int})"/>.</summary>
    internal void MightExistBatch(ReadOnlySpan<byte> utf8Names, ReadOnlySpan<int> lengths, Span<bool> results)
    {
        CheckResults(lengths.Length, results.Length);
        CheckLengths(utf8Names.Length, lengths);
        var source = new PackedNames(utf8Names, lengths);
        Pipeline(ref source, add: false, results);
    }

    /// <summary>
    /// Hashes the next chunk of names while the previous chunk's lines arrive, then probes the previous chunk:
    /// each line is prefetched the moment its name is hashed, so the hashing of 64 names (a few hundred nanoseconds,
    /// about one DRAM latency) hides the misses of the 64 before them, with about one prefetch in flight per hash.
    /// </summary>
    private void Pipeline<TNames>(ref TNames names, bool add, Span<bool> results)
        where TNames : INameSource, allows ref struct
    {
        Span<ulong> buffers = stackalloc ulong[2 * HashChunk];
        int total = names.Count;
        int start = 0, count = HashAndPrefetch(ref names, buffers[..HashChunk], total, add);
        for (int half = 0; count > 0; half ^= 1)
        {
            Span<ulong> current = buffers.Slice(half * HashChunk, count);
            int nextCount = HashAndPrefetch(ref names, buffers.Slice((half ^ 1) * HashChunk, HashChunk), total - start - count, add);
            if (add)
            {
                _lines.AddPrefetched(current);
            }
            else
            {
                _lines.MightExistPrefetched(current, results.Slice(start, count));
            }

            start += count;
            count = nextCount;
        }
    }

    private int HashAndPrefetch<TNames>(ref TNames names, scoped Span<ulong> hashes, int remaining, bool add)
        where TNames : INameSource, allows ref struct
    {
        int count = Math.Min(hashes.Length, remaining);
        for (int i = 0; i < count; i++)
        {
            ulong hash = names.HashNext(_seed);
            hashes[i] = hash;
            if (add)
            {
                _lines.PrefetchForAdd(hash);
            }
            else
            {
                _lines.Prefetch(hash);
            }
        }

        if (!Blocked.BloomLines.HasPrefetch)
        {
            _ = _lines.TouchLines(hashes[..count]); // no prefetch instruction (ARM64): the chunk's lines loaded together instead
        }

        return count;
    }

    /// <summary>Adds keys by their hashes (see <see cref="AddHash"/>), prefetching ahead so that their cache misses overlap.</summary>
    public void AddHashes(ReadOnlySpan<ulong> hashes)
    {
        ThrowIfReadOnly();
        _lines.AddBatch(hashes);
    }

    /// <summary>Answers names already hashed with <see cref="Hash(ReadOnlySpan{byte})"/>.</summary>
    internal void MightExistHashes(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        CheckResults(hashes.Length, results.Length);
        _lines.MightExistBatch(hashes, results);
    }

    // Checked before anything is added, so a bad batch changes nothing.
    private static void CheckLengths(int bufferLength, ReadOnlySpan<int> lengths)
    {
        long total = 0;
        foreach (int length in lengths)
        {
            total += length;
            if (length < 0 || total > bufferLength)
            {
                throw new ArgumentException($"Name lengths must be non-negative and add up to at most the {bufferLength}-byte buffer.", nameof(lengths));
            }
        }
    }

    private static void CheckResults(int names, int results)
    {
        if (results < names)
        {
            throw new ArgumentException($"results holds {results} answers but the batch has {names} names.", nameof(results));
        }
    }

    /// <summary>Names handed to <see cref="Pipeline"/> one hash at a time, in order.</summary>
    private interface INameSource
    {
        int Count { get; }

        ulong HashNext(ulong seed);
    }

    private ref struct StringNames(ReadOnlySpan<string> names) : INameSource
    {
        private readonly ReadOnlySpan<string> _names = names;
        private int _next;

        public readonly int Count => _names.Length;

        public ulong HashNext(ulong seed) => KeyHasher.Hash(_names[_next++], seed);
    }

    private ref struct PackedNames(ReadOnlySpan<byte> utf8Names, ReadOnlySpan<int> lengths) : INameSource
    {
        private readonly ReadOnlySpan<byte> _utf8 = utf8Names;
        private readonly ReadOnlySpan<int> _lengths = lengths;
        private int _next;
        private int _offset;

        public readonly int Count => _lengths.Length;

        public ulong HashNext(ulong seed)
        {
            int length = _lengths[_next++];
            ulong hash = KeyHasher.Hash(_utf8.Slice(_offset, length), seed);
            _offset += length;
            return hash;
        }
    }
}
