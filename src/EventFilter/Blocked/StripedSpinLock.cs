using System.Runtime.CompilerServices;

namespace EventFilter.Blocked;

/// <summary>
/// Serialises adds that land on the same line, so two writers never lose each other's checksum update.
/// Lookups never take it: bits only go from 0 to 1, so a reader racing an add sees the line before or after it.
/// Each stripe sits on its own cache line so that writers on different stripes do not false-share.
/// Why a spin lock: the critical section is a handful of ORs and XORs, far shorter than a context switch.
/// </summary>
/// <remarks>
/// Beside its lock word each stripe keeps the highest log record end of the host adds that went through it
/// (docs/design.md, "Host contract"): written only under the stripe, so concurrent adds never lose a raise, and on a
/// cache line the add has just taken anyway, so keeping it costs the hot path a compare and a store.
/// </remarks>
internal sealed class StripedSpinLock
{
    private const int Stripes = 256;
    private const int IntsPerCacheLine = 16;
    private const int RecordEndOffset = 2; // ints 2-3 of the stripe's line: 8-byte aligned, as the array's data is

    private readonly int[] _slots = new int[Stripes * IntsPerCacheLine];

    [MethodImpl(MethodImplOptions.AggressiveInlining)]
    public ref int Enter(uint line)
    {
        ref int slot = ref _slots[(int)(line & (Stripes - 1)) * IntsPerCacheLine];
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
    public void WaitUntilFree(uint line)
    {
        ref int slot = ref _slots[(int)(line & (Stripes - 1)) * IntsPerCacheLine];
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
        for (uint stripe = 0; stripe < Stripes; stripe++)
        {
            WaitUntilFree(stripe);
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
    public long RecordEnd(uint line) => Volatile.Read(ref RecordEndOf(ref _slots[(int)(line & (Stripes - 1)) * IntsPerCacheLine]));

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
            ref int slot = ref Enter((uint)stripe);
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
