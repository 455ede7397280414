namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// The loops every lookup and add measurement runs over a pool of names, each returning a count so that nothing can
/// be optimised away: one copy for the BenchmarkDotNet classes and the console experiments alike.
/// </summary>
public static class NameLoops
{
    /// <summary>How many of <paramref name="names"/> answer "maybe".</summary>
    public static int CountMaybe(FilterFile filter, byte[][] names)
    {
        int maybe = 0;
        foreach (byte[] name in names)
        {
            maybe += filter.MightExist(name) ? 1 : 0;
        }

        return maybe;
    }

    /// <inheritdoc cref="CountMaybe(FilterFile, byte[][])"/>
    public static int CountMaybe(FilterFile filter, string[] names)
    {
        int maybe = 0;
        foreach (string name in names)
        {
            maybe += filter.MightExist(name) ? 1 : 0;
        }

        return maybe;
    }

    /// <summary>Adds <paramref name="names"/>; returns how many changed the filter.</summary>
    public static int CountAdded(FilterFile filter, byte[][] names)
    {
        int changed = 0;
        foreach (byte[] name in names)
        {
            changed += filter.Add(name) ? 1 : 0;
        }

        return changed;
    }

    /// <inheritdoc cref="CountAdded(FilterFile, byte[][])"/>
    public static int CountAdded(FilterFile filter, string[] names)
    {
        int changed = 0;
        foreach (string name in names)
        {
            changed += filter.Add(name) ? 1 : 0;
        }

        return changed;
    }
}
