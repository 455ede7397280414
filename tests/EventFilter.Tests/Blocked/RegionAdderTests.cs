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

    // The owner of a line group is group mod threads without a divide: it must equal the divide for every thread count
    // and group, the extremes included, or hash-count and scatter would still agree but the threads' shares would not.
    [Theory]
    [InlineData(1)]
    [InlineData(2)]
    [InlineData(3)]
    [InlineData(7)]
    [InlineData(64)]
    [InlineData(1000)]
    public void FastMod_equals_the_remainder(uint divisor)
    {
        ulong multiplier = RegionAdder.FastModMultiplier(divisor);
        uint[] values = [0, 1, 2, divisor - 1, divisor, divisor + 1, 63, 64, 65_535, 1 << 26, int.MaxValue, uint.MaxValue - 1, uint.MaxValue];
        var random = new Random(33);
        foreach (uint value in values.Concat(Enumerable.Range(0, 10_000).Select(_ => (uint)random.NextInt64(0, 1L << 32))))
        {
            Assert.Equal(value % divisor, RegionAdder.FastMod(value, multiplier, divisor));
        }
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
