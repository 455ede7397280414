namespace EventFilter.Benchmarks.Experiments;

public static partial class TargetsExperiment
{
    /// <summary>
    /// The hot-path goals as ratios to the same run's baseline. In-cache rows are against a dependent chase over a
    /// 256 KiB buffer (about 4 ns where the goals were set, an L2 hit), 256 MiB rows against the chase over 256 MiB
    /// (180-220 ns there, a DRAM access with a two-level page walk). The ratios are the nanosecond goals first set on
    /// that machine (docs/benchmarks.md, "Machine") divided by its chase, rounded: a machine with faster memory gets
    /// tighter goals in nanoseconds, as it should.
    /// </summary>
    private static class Goals
    {
        /// <summary>A UTF-8 lookup in cache: hashing a 60-byte name plus one L1/L2 line, about 10 ns against a 4 ns chase.</summary>
        public const double LookupInCache = 2.5;

        /// <summary>The string form in cache: the UTF-8 lookup plus transcoding, about 18 ns.</summary>
        public const double LookupInCacheString = 4.5;

        /// <summary>An add in cache, one writer: hash, stripe lock, bits, line checksum, about 30 ns.</summary>
        public const double AddInCache = 7.5;

        /// <summary>
        /// Two writers adding at once into the same lines' stripes: at most twice the single writer's goal, 60 ns, over
        /// the machine's own two writers sharing lines on the same threads (its median round, about 9 ns a step there),
        /// not over the chase: what two writers cost is mostly moving lines between the cores, which the host's
        /// placement of the two vCPUs sets.
        /// </summary>
        public const double AddInCacheContending = 6.5;

        /// <summary>One add of a new name at 256 MiB: one line's miss, and little else.</summary>
        public const double AddOutOfCache = 1.1;

        /// <summary>One lookup at 256 MiB: one line's miss.</summary>
        public const double LookupOutOfCache = 1.1;

        /// <summary>A batch lookup at 256 MiB overlaps its misses: a tenth of one, about 20 ns.</summary>
        public const double LookupBatch = 0.1;

        /// <summary>A batch add at 256 MiB overlaps its misses too: a fifth of one, about 40 ns.</summary>
        public const double AddBatch = 0.2;

        /// <summary>The string form of a 256 MiB lookup against its UTF-8 form in the same run.</summary>
        public const double StringForm = 1.15;

        /// <summary>Catch-up of 4M names into 256 MiB, to ready: half a miss per name, about 100 ns (10M names/s).</summary>
        public const double CatchUp = 0.5;
    }
}
