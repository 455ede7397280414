namespace EventFilter.Benchmarks.Experiments;

/// <summary>The loops <c>targets</c> times: adds in each writer mode, and lookups of a pool of names.</summary>
public static partial class TargetsExperiment
{
    /// <summary>A method of its own, called every round, so the JIT tiers it up like any hot path (a loop inside a thread's body never would).</summary>
    private static void AddAll(FilterFile filter, Peers.LineWriterModes modes, WriterMode mode, byte[][] names)
    {
        switch (mode)
        {
            case WriterMode.StripeLock:
                foreach (byte[] name in names)
                {
                    filter.Add(name);
                }

                break;
            case WriterMode.InterlockedOrs:
                foreach (byte[] name in names)
                {
                    modes.AddInterlocked(filter.Hash(name), FilterFileOptions.DefaultK);
                }

                break;
            default:
                foreach (byte[] name in names)
                {
                    modes.AddSingleWriter(filter.Hash(name), FilterFileOptions.DefaultK);
                }

                break;
        }
    }

    /// <summary>How the add sets its bits: EventFilter's striped lock, or one of the two alternatives it was weighed against.</summary>
    private enum WriterMode
    {
        StripeLock,
        InterlockedOrs,
        SingleWriterUnsynchronised,
    }
}
