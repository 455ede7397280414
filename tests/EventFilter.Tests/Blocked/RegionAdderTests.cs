using System.Runtime.InteropServices;
using System.Text;
using EventFilter.Blocked;
using EventFilter.Hashing;
using EventFilter.Integrity;

namespace EventFilter.Tests.Blocked;

/// <summary>
/// The catch-up's region path (docs/design.md, "Hot path") sets exactly the bits, checksums and changed-line marks the
/// prefetch pipeline sets, on one thread or several, and allocates nothing once sized.
/// </summary>
public sealed unsafe class RegionAdderTests
{
    private const ulong Seed = 0x5EED_0033;

    // 70,001 lines: five regions, the last one short; 4,096 lines: one region, added without a partition.
    // k = 6 takes the vector probes, k = 12 the lanes past the narrow ones; two lines per key, the spread path.
    [Theory]
    [InlineData(1, 100_000, 6, 1, 70_001)]
    [InlineData(2, 100_000, 6, 1, 70_001)]
    [InlineData(3, 100_000, 6, 1, 70_001)]
    [InlineData(2, 1_000, 6, 1, 70_001)]
    [InlineData(2, 100_000, 12, 1, 70_001)]
    [InlineData(2, 100_000, 6, 2, 70_001)]
    [InlineData(1, 100_000, 6, 1, 4_096)]
    [InlineData(2, 100_000, 6, 1, 4_096)]
    public void Region_path_sets_the_same_lines_and_marks_as_the_pipeline(int threads, int count, int k, int linesPerKey, uint lineCount)
    {
        StreamNameBatch batch = Batch(0, count);
        using var pipeline = new NativeLines(lineCount, k, linesPerKey);
        using var grouped = new NativeLines(lineCount, k, linesPerKey);
        using var adder = new RegionAdder(threads);

        pipeline.Lines.AddBatch(Hashes(batch));
        adder.Add(grouped.Lines, Seed, batch);

        Assert.True(pipeline.Bytes.SequenceEqual(grouped.Bytes), "the lines differ");
        Assert.Equal(pipeline.TakeMarks(), grouped.TakeMarks());
        Assert.Equal(0, LineVerifier.Scan(grouped.Lines.Lines, lineCount, repair: false, threshold: 1).MismatchedLines);
    }

    // Each thread adds a run of regions, and a stripe covers a run of lines: where one thread's run ends and the next
    // one's begins must also be where one stripe ends and the next begins, or the two threads would take the same
    // stripe's cache line in turn on every add near the boundary (64 MiB, 1 GiB and 4 GiB files, as their geometry
    // gives them: one line less than a power of two).
    [Theory]
    [InlineData((1u << 20) - 1, 2)]
    [InlineData((1u << 20) - 1, 4)]
    [InlineData((1u << 24) - 1, 2)]
    [InlineData((1u << 24) - 1, 4)]
    [InlineData((1u << 26) - 1, 2)]
    [InlineData((1u << 26) - 1, 4)]
    public void Threads_own_runs_of_regions_that_share_no_stripe(uint lineCount, int threads)
    {
        var lines = new BloomLines(null, lineCount, 6, changed: null);
        var locks = new StripedSpinLock(lineCount);
        for (int t = 1; t < threads; t++)
        {
            uint boundary = (uint)RegionAdder.FirstRegion(lines.Regions, t, threads) << lines.RegionShift;
            // Stripes rise with the line (the test below), so a higher stripe here means none is shared.
            Assert.True(locks.StripeOf(boundary - 1) < locks.StripeOf(boundary), $"thread {t} starts in the stripe of thread {t - 1}'s last line");
        }
    }

    // Stripes are runs of consecutive lines, 256 of them at most, over any file size.
    [Theory]
    [InlineData(1u)]
    [InlineData(255u)]
    [InlineData(256u)]
    [InlineData(257u)]
    [InlineData(70_001u)]
    [InlineData(uint.MaxValue)]
    public void Stripes_are_runs_of_lines_below_256(uint lineCount)
    {
        var locks = new StripedSpinLock(lineCount);
        int previous = 0;
        for (ulong line = 0; line < lineCount; line += Math.Max(1, lineCount / 100_000))
        {
            int stripe = locks.StripeOf((uint)line);
            Assert.InRange(stripe, previous, 255);
            previous = stripe;
        }

        Assert.InRange(locks.StripeOf(lineCount - 1), previous, 255);
    }

    [Fact]
    public void Batches_of_other_sizes_after_the_first_reuse_the_buffers_and_add_every_name()
    {
        using var lines = new NativeLines(1 << 16, 6, 1);
        using var adder = new RegionAdder(2);
        StreamNameBatch small = Batch(0, 500), large = Batch(500, 80_000);
        adder.Add(lines.Lines, Seed, small);
        adder.Add(lines.Lines, Seed, large);
        adder.Add(lines.Lines, Seed, small);
        Assert.All(Hashes(small).ToArray().Concat(Hashes(large).ToArray()), hash => Assert.True(lines.Lines.MightExist(hash)));
    }

    [Fact]
    public void A_large_batch_on_several_threads_allocates_nothing_once_sized()
    {
        using var lines = new NativeLines(1 << 16, 6, 1);
        using var adder = new RegionAdder(2);
        StreamNameBatch batch = Batch(0, RegionAdder.ParallelMinimum);
        Assert.Equal(0, SteadyAllocations.Of(() => adder.Add(lines.Lines, Seed, batch)));
    }

    internal static StreamNameBatch Batch(int first, int count)
    {
        var batch = new StreamNameBatch(count, count * 64);
        for (int i = first; i < first + count; i++)
        {
            Assert.True(batch.TryAdd(Encoding.UTF8.GetBytes(Names.Added(i))));
        }

        return batch;
    }

    private static ReadOnlySpan<ulong> Hashes(StreamNameBatch batch)
    {
        var hashes = new ulong[batch.Count];
        int offset = 0;
        for (int i = 0; i < hashes.Length; i++)
        {
            hashes[i] = KeyHasher.Hash(batch.Names.Slice(offset, batch.Lengths[i]), Seed);
            offset += batch.Lengths[i];
        }

        return hashes;
    }

    /// <summary>Zeroed lines in native memory with a changed-line bitmap: the state of a fresh file's mapping.</summary>
    private sealed class NativeLines : IDisposable
    {
        private readonly byte* _memory;
        private readonly AtomicBitmap _changed;
        private readonly uint _lineCount;

        public NativeLines(uint lineCount, int k, int linesPerKey)
        {
            _lineCount = lineCount;
            _memory = (byte*)NativeMemory.AlignedAlloc((nuint)lineCount * 64, 64);
            NativeMemory.Clear(_memory, (nuint)lineCount * 64);
            _changed = new AtomicBitmap(lineCount);
            Lines = new BloomLines(_memory, lineCount, k, _changed, linesPerKey);
        }

        public BloomLines Lines { get; }

        public ReadOnlySpan<byte> Bytes => new(_memory, checked((int)(_lineCount * 64)));

        public List<long> TakeMarks()
        {
            var marks = new Marks { Members = [] };
            _changed.Take(ref marks);
            return marks.Members;
        }

        public void Dispose() => NativeMemory.AlignedFree(_memory);

        private struct Marks : AtomicBitmap.IMemberVisitor
        {
            public List<long> Members;

            public readonly void Visit(long index) => Members.Add(index);
        }
    }
}
