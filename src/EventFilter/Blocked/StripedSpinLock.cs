using System.Runtime.CompilerServices;

namespace EventFilter.Blocked;

/// <summary>
/// Serialises adds that land on the same line, so two writers never lose each other's checksum update.
/// Lookups never take it: bits only go from 0 to 1, so a reader racing an add sees the line before or after it.
/// Each stripe sits on its own cache line so that writers on different stripes do not false-share.
/// Why a spin lock: the critical section is a handful of ORs and XORs, far shorter than a context switch.
/// </summary>
internal sealed class StripedSpinLock
{
    private const int Stripes = 256;
    private const int IntsPerCacheLine = 16;

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
