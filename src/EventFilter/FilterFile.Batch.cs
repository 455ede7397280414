namespace EventFilter;

/// <summary>
/// The batch forms: hash a whole chunk of names first, then prefetch and probe their lines, so that the cache
/// misses of many names overlap instead of queueing one behind another. The fast path for catch-up and bulk appends.
/// </summary>
public sealed partial class FilterFile
{
    /// <summary>Names hashed per chunk: 512 bytes of hashes on the stack.</summary>
    private const int HashChunk = 64;

    /// <summary>Adds every name.</summary>
    public void AddBatch(ReadOnlySpan<string> names)
    {
        ThrowIfReadOnly();
        Span<ulong> hashes = stackalloc ulong[HashChunk];
        for (int start = 0; start < names.Length; start += HashChunk)
        {
            int count = Math.Min(HashChunk, names.Length - start);
            for (int i = 0; i < count; i++)
            {
                hashes[i] = Hash(names[start + i]);
            }

            _lines.AddBatch(hashes[..count]);
        }
    }

    /// <summary>Answers every name: results[i] is false when names[i] was definitely never added.</summary>
    public void MightExistBatch(ReadOnlySpan<string> names, Span<bool> results)
    {
        CheckResults(names.Length, results.Length);
        Span<ulong> hashes = stackalloc ulong[HashChunk];
        for (int start = 0; start < names.Length; start += HashChunk)
        {
            int count = Math.Min(HashChunk, names.Length - start);
            for (int i = 0; i < count; i++)
            {
                hashes[i] = Hash(names[start + i]);
            }

            _lines.MightExistBatch(hashes[..count], results.Slice(start, count));
        }
    }

    /// <summary>
    /// Adds UTF-8 names packed back to back in <paramref name="utf8Names"/>; <paramref name="lengths"/>[i] is the
    /// byte length of name i. This is how a log reader hands over a buffer of records without a string per name.
    /// </summary>
    public void AddBatch(ReadOnlySpan<byte> utf8Names, ReadOnlySpan<int> lengths)
    {
        ThrowIfReadOnly();
        CheckLengths(utf8Names.Length, lengths);
        Span<ulong> hashes = stackalloc ulong[HashChunk];
        int offset = 0;
        for (int start = 0; start < lengths.Length; start += HashChunk)
        {
            int count = Math.Min(HashChunk, lengths.Length - start);
            offset = HashPacked(utf8Names, lengths.Slice(start, count), offset, hashes);
            _lines.AddBatch(hashes[..count]);
        }
    }

    /// <summary>Answers UTF-8 names packed as for <see cref="AddBatch(ReadOnlySpan{byte}, ReadOnlySpan{int})"/>.</summary>
    public void MightExistBatch(ReadOnlySpan<byte> utf8Names, ReadOnlySpan<int> lengths, Span<bool> results)
    {
        CheckResults(lengths.Length, results.Length);
        CheckLengths(utf8Names.Length, lengths);
        Span<ulong> hashes = stackalloc ulong[HashChunk];
        int offset = 0;
        for (int start = 0; start < lengths.Length; start += HashChunk)
        {
            int count = Math.Min(HashChunk, lengths.Length - start);
            offset = HashPacked(utf8Names, lengths.Slice(start, count), offset, hashes);
            _lines.MightExistBatch(hashes[..count], results.Slice(start, count));
        }
    }

    /// <summary>Adds names already hashed with <see cref="Hash(ReadOnlySpan{byte})"/>.</summary>
    public void AddHashes(ReadOnlySpan<ulong> hashes)
    {
        ThrowIfReadOnly();
        _lines.AddBatch(hashes);
    }

    /// <summary>Answers names already hashed with <see cref="Hash(ReadOnlySpan{byte})"/>.</summary>
    public void MightExistHashes(ReadOnlySpan<ulong> hashes, Span<bool> results)
    {
        CheckResults(hashes.Length, results.Length);
        _lines.MightExistBatch(hashes, results);
    }

    private int HashPacked(ReadOnlySpan<byte> utf8Names, ReadOnlySpan<int> lengths, int offset, Span<ulong> hashes)
    {
        for (int i = 0; i < lengths.Length; i++)
        {
            hashes[i] = Hash(utf8Names.Slice(offset, lengths[i]));
            offset += lengths[i];
        }

        return offset;
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
}
