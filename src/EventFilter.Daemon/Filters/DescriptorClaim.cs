namespace EventFilter.Daemon.Filters;

/// <summary>
/// Descriptors counted in <see cref="DescriptorBudget"/> for files not open yet: a new filter's log and first layer from
/// its create until they open, a new layer, a parked restore's files. A file that opens draws its descriptors from the
/// claim it was made for (<see cref="DescriptorBudget.Opened"/>), so the budget's count moves in one step, never counting
/// a file twice (over-counting, which refused creates that fit) nor not at all; what was never drawn goes back on
/// <see cref="Dispose"/>. A claim belongs to one owner at a time: the one that made it, or the filter it was split to.
/// </summary>
internal sealed class DescriptorClaim : IDisposable
{
    private int _descriptors;

    private DescriptorClaim(int descriptors) => _descriptors = descriptors;

    /// <summary>Descriptors not drawn yet.</summary>
    public int Remaining => Volatile.Read(ref _descriptors);

    /// <summary>Claims <paramref name="descriptors"/> when they fit (<see cref="DescriptorBudget.TryClaim"/>).</summary>
    internal static DescriptorClaim Counted(int descriptors) => new(descriptors);

    /// <summary>
    /// <paramref name="descriptors"/> taken from <paramref name="from"/>, for an owner of their own (a new filter's log,
    /// its first layer); what <paramref name="from"/> lacks (or all, without one) is claimed unchecked.
    /// </summary>
    public static DescriptorClaim Split(DescriptorClaim? from, int descriptors)
    {
        int taken = from?.Take(descriptors) ?? 0;
        if (taken < descriptors)
        {
            DescriptorBudget.Add(descriptors - taken);
        }

        return new DescriptorClaim(descriptors);
    }

    /// <summary>Takes up to <paramref name="descriptors"/> from the claim for a file that opened; returns how many it had.</summary>
    public int Take(int descriptors)
    {
        int left;
        int taken;
        do
        {
            left = Volatile.Read(ref _descriptors);
            taken = Math.Min(left, descriptors);
        }
        while (taken > 0 && Interlocked.CompareExchange(ref _descriptors, left - taken, left) != left);

        return taken;
    }

    /// <summary>
    /// A file that drew <paramref name="descriptors"/> from the claim closed again before its owner took it (a failed
    /// open after the draw): they are owed, and counted, again.
    /// </summary>
    public void Return(int descriptors)
    {
        DescriptorBudget.Add(descriptors);
        Interlocked.Add(ref _descriptors, descriptors);
    }

    /// <summary>Gives back what no file drew: the files opened, or never will.</summary>
    public void Dispose()
    {
        int left = Interlocked.Exchange(ref _descriptors, 0);
        if (left > 0)
        {
            DescriptorBudget.Add(-left);
        }
    }
}
