using System.Numerics;
using System.Runtime.CompilerServices;
using System.Runtime.Intrinsics;

namespace EventFilter.Blocked;

/// <summary>
/// A set of small integers (line or block numbers) that many threads may add to while one thread takes them out.
/// Adds set a bit with one interlocked OR, skipped when the bit is already set; <see cref="Take"/> clears a word with
/// one interlocked exchange before it reports the word's members, so a member added after that exchange stays for
/// the next take. See docs/design.md, section "Changed-line journal", for why a skipped OR is still safe there.
/// </summary>
internal sealed class AtomicBitmap
{
    private readonly ulong[] _words;

    public AtomicBitmap(long capacity)
    {
        Capacity = capacity;
        _words = new ulong[(capacity + 63) >> 6];
    }

    public long Capacity { get; }

    /// <summary>Adds <paramref name="index"/>. Safe from any number of threads.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void Add(long index)
    {
        ref ulong word = ref Unsafe.Add(ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(_words), (nint)(index >> 6));
        ulong bit = 1UL << (int)(index & 63);
        if ((Volatile.Read(ref word) & bit) == 0)
        {
            Interlocked.Or(ref word, bit);
        }
    }

    /// <summary>Starts loading the word that holds <paramref name="index"/>, for an <see cref="Add"/> a little later.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public unsafe void Prefetch(long index)
    {
        if (System.Runtime.Intrinsics.X86.Sse.IsSupported)
        {
            System.Runtime.Intrinsics.X86.Sse.Prefetch0(Unsafe.AsPointer(ref Unsafe.Add(ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(_words), (nint)(index >> 6))));
        }
    }

    /// <summary>Number of members now (a snapshot; adds may race it).</summary>
    public long Count()
    {
        long count = 0;
        foreach (ulong word in _words)
        {
            count += BitOperations.PopCount(word);
        }

        return count;
    }

    /// <summary>
    /// Counts the members and how many distinct groups of 2^<paramref name="groupShift"/> consecutive indices
    /// (index + <paramref name="groupOffset"/>) they fall in, without taking them: the flush sizes its two write plans with it.
    /// </summary>
    public (long Members, long Groups) CountWithGroups(int groupShift, long groupOffset)
    {
        long members = 0, groups = 0, lastGroup = -1;
        for (int w = NextNonZero(0); w < _words.Length; w = NextNonZero(w + 1))
        {
            ulong word = Volatile.Read(ref _words[w]);
            members += BitOperations.PopCount(word);
            while (word != 0)
            {
                long index = ((long)w << 6) + BitOperations.TrailingZeroCount(word);
                long group = (index + groupOffset) >> groupShift;
                if (group != lastGroup)
                {
                    groups++;
                    lastGroup = group;
                }

                // Skip the rest of this group within the word: one bit per group is enough to count it.
                long nextGroupIndex = ((group + 1) << groupShift) - groupOffset;
                int skip = (int)Math.Min(64, nextGroupIndex - ((long)w << 6));
                word = skip >= 64 ? 0 : word & (ulong.MaxValue << skip);
            }
        }

        return (members, groups);
    }

    /// <summary>Removes every member and hands each to <paramref name="visit"/> in ascending order.</summary>
    public void Take<TVisitor>(ref TVisitor visit)
        where TVisitor : struct, IMemberVisitor
    {
        for (int w = NextNonZero(0); w < _words.Length; w = NextNonZero(w + 1))
        {
            ulong word = Interlocked.Exchange(ref _words[w], 0);
            while (word != 0)
            {
                visit.Visit(((long)w << 6) + BitOperations.TrailingZeroCount(word));
                word &= word - 1;
            }
        }
    }

    /// <summary>
    /// The first word at or after <paramref name="from"/> that holds a member, or the word count. The flush scans the
    /// whole bitmap (a bit per line: 512 KiB for 256 MiB) twice per flush, and between frequent flushes nearly every
    /// word is zero: skipping 64 bytes per compare keeps that scan off the adds' core and caches. A member added
    /// while this reads is found by the next flush, as with any word read before the add.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private int NextNonZero(int from)
    {
        ref ulong words = ref System.Runtime.InteropServices.MemoryMarshal.GetArrayDataReference(_words);
        int w = from;
        if (Vector512.IsHardwareAccelerated)
        {
            while (w + Vector512<ulong>.Count <= _words.Length && Vector512.LoadUnsafe(ref words, (nuint)w) == Vector512<ulong>.Zero)
            {
                w += Vector512<ulong>.Count;
            }
        }
        else if (Vector256.IsHardwareAccelerated)
        {
            while (w + Vector256<ulong>.Count <= _words.Length && Vector256.LoadUnsafe(ref words, (nuint)w) == Vector256<ulong>.Zero)
            {
                w += Vector256<ulong>.Count;
            }
        }

        while (w < _words.Length && Volatile.Read(ref Unsafe.Add(ref words, w)) == 0)
        {
            w++;
        }

        return w;
    }

    /// <summary>Adds every index below <see cref="Capacity"/>: after a failed write, when what was written is unknown.</summary>
    public void AddAll()
    {
        for (int w = 0; w < _words.Length; w++)
        {
            long remaining = Capacity - ((long)w << 6);
            Interlocked.Or(ref _words[w], remaining >= 64 ? ulong.MaxValue : (1UL << (int)remaining) - 1);
        }
    }

    /// <summary>Receives the members a <see cref="Take{TVisitor}"/> removes.</summary>
    public interface IMemberVisitor
    {
        void Visit(long index);
    }
}
