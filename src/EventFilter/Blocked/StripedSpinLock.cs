using System.Runtime.CompilerServices;

namespace EventFilter.Blocked;

/// <summary>
/// Serialises adds that land on the same line, so two writers never lose each other's checksum update.
/// Lookups never take it: bits only go from 0 to 1, so a reader racing an add sees the line before or after it.
/// Each stripe sits on its own cache line so that writers on different stripes do not false-share. A stripe covers a
/// run of consecutive lines, 1/256 of the file: threads that add to different parts of the file (the catch-up's, each
/// in its own span of regions) then never take the same stripe, where stripes by line number modulo 256 had each
/// thread take every stripe in turn and move its cache line between cores on each add.
/// Why a spin lock: the critical section is a handful of ORs and XORs, far shorter than a context switch.
/// </summary>
/// <remarks>
/// Beside its lock word each stripe keeps the highest log record end of the host adds that went through it
/// (docs/design.md, "Host contract"): written only under the stripe, so concurrent adds never lose a raise, and on a
/// cache line the add has just taken anyway, so keeping it costs the hot path a compare and a store.
/// </remarks>
internal sealed class StripedSpinLock
{
    private const int StripesLog2 = 8;
    private const int Stripes = 1 << StripesLog2;
    private const int IntsPerCacheLine = 16;
    private const int RecordEndOffset = 2; // ints 2-3 of the stripe's line: 8-byte aligned, as the array's data is

    private readonly int[] _slots = new int[Stripes * IntsPerCacheLine];
    private readonly int _shift;

    /// <param name="lineCount">Lines in the file: a stripe covers 2^n consecutive of them, enough that 256 stripes cover all.</param>
    public StripedSpinLock(uint lineCount)
    {
        int bits = lineCount <= 1 ? 0 : 32 - System.Numerics.BitOperations.LeadingZeroCount(lineCount - 1); // to number every line
        _shift = Math.Max(0, bits - StripesLog2);
    }

    /// <summary>The stripe of <paramref name="line"/>, 0 to 255.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public int StripeOf(uint line) => (int)(line >> _shift);

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref int Enter(uint line) => ref EnterStripe(StripeOf(line));

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private ref int EnterStripe(int stripe)
    {
        ref int slot = ref _slots[stripe * IntsPerCacheLine];
        if (Interlocked.CompareExchange(ref slot, 1, 0) != 0)
        {
            EnterContended(ref slot);
        }

        return ref slot;
    }

    /// <summary>Releases the stripe; the release store publishes the line's writes with it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void Exit(ref int slot) => Volatile.Write(ref slot, 0);

    /// <summary>
    /// Returns once <paramref name="line"/>'s stripe has been seen free, without taking it: whatever an add released
    /// before that is visible to the caller, and an add that takes the stripe later reads what the caller wrote before
    /// (both sides pass a full fence). The flush copies lines this way, so an add never waits for the flush's thread.
    /// </summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public void WaitUntilFree(uint line) => WaitUntilStripeFree(StripeOf(line));

    private void WaitUntilStripeFree(int stripe)
    {
        ref int slot = ref _slots[stripe * IntsPerCacheLine];
        var spinner = default(SpinWait);
        while (Volatile.Read(ref slot) != 0)
        {
            spinner.SpinOnce();
        }
    }

    /// <summary>
    /// Returns once every stripe has been seen free since the call: every add that was inside a stripe when it was
    /// called has finished and its writes are visible. Takes no stripe.
    /// </summary>
    public void WaitUntilAllFree()
    {
        for (int stripe = 0; stripe < Stripes; stripe++)
        {
            WaitUntilStripeFree(stripe);
        }
    }

    /// <summary>Raises the highest record end of the stripe held through <paramref name="slot"/>.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public static void RaiseRecordEnd(ref int slot, long recordEnd)
    {
        ref long end = ref RecordEndOf(ref slot);
        if (recordEnd > end)
        {
            end = recordEnd;
        }
    }

    /// <summary>The highest record end of <paramref name="line"/>'s stripe, read without taking it.</summary>
    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public long RecordEnd(uint line) => Volatile.Read(ref RecordEndOf(ref _slots[StripeOf(line) * IntsPerCacheLine]));

    /// <summary>The highest record end over all stripes. Reads each without taking it: for a resize or a checkpoint, not adds.</summary>
    public long HighestRecordEnd()
    {
        long highest = 0;
        for (int stripe = 0; stripe < Stripes; stripe++)
        {
            highest = Math.Max(highest, Volatile.Read(ref RecordEndOf(ref _slots[stripe * IntsPerCacheLine])));
        }

        return highest;
    }

    /// <summary>Lowers every stripe's record end to at most <paramref name="position"/> (the log was cut there), under each stripe.</summary>
    public void CapRecordEnds(long position)
    {
        for (int stripe = 0; stripe < Stripes; stripe++)
        {
            ref int slot = ref EnterStripe(stripe);
            ref long end = ref RecordEndOf(ref slot);
            end = Math.Min(end, position);
            Exit(ref slot);
        }
    }

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    private static ref long RecordEndOf(ref int slot) => ref Unsafe.As<int, long>(ref Unsafe.Add(ref slot, RecordEndOffset));

    [MethodImpl(MethodImplOptions.NoInlining)]
    private static void EnterContended(ref int slot)
    {
        var spinner = default(SpinWait);
        do
        {
            spinner.SpinOnce();
        }
        while (Volatile.Read(ref slot) != 0 || Interlocked.CompareExchange(ref slot, 1, 0) != 0);
    }
}
