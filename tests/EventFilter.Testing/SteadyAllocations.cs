namespace EventFilter.Testing;

/// <summary>
/// Bytes a piece of work allocates on the calling thread once it runs steadily. The runtime may allocate on that
/// thread while it compiles: tier-up and on-stack replacement of a loop can land in any run, warm-up or not. So the
/// work is warmed up, then measured a few times, and the smallest figure is the answer. An allocation the work itself
/// makes shows in every run and cannot hide; a one-off compile shows in one run only.
/// </summary>
public static class SteadyAllocations
{
    public static long Of(Action work, int warmUps = 2, int measuredRuns = 5)
    {
        for (int i = 0; i < warmUps; i++)
        {
            work();
        }

        long least = long.MaxValue;
        for (int i = 0; i < measuredRuns && least != 0; i++)
        {
            long before = GC.GetAllocatedBytesForCurrentThread();
            work();
            least = Math.Min(least, GC.GetAllocatedBytesForCurrentThread() - before);
        }

        return least;
    }
}
