using EventFilter.Hashing;
using EventFilter.Threading;

namespace EventFilter.Blocked;

/// <summary>
/// Adds a large batch of names (a catch-up's) at the memory system's pace: hashes every name, partitions the hashes by
/// line region (a counting sort on the region, the line's high bits), then adds region by region, so that the adds
/// walk the file in order and their page walks hit the TLB instead of each taking a miss of its own. With more than
/// one thread, the names are hashed and partitioned in slices, and each thread adds the lines it owns: the 64-line
/// groups <c>(line &gt;&gt; 6) mod threads</c>, so that with 2 or 4 threads no two share a stripe or a changed-line
/// word and neither cache line moves between cores. Every add still takes its line's stripe, so host adds may race
/// it. One per catch-up; not thread-safe. See docs/design.md, "Hot path".
/// </summary>
internal sealed class RegionAdder : IDisposable
{
    /// <summary>Fewer names than this are added by one thread: waking the others would cost more than it saves.</summary>
    public const int ParallelMinimum = 1 << 16;

    private const int MaxRegions = 1 << 10;

    private readonly int _maxThreads;
    private readonly bool _partition;
    private readonly int[][] _counts;
    private readonly int[][] _offsets;
    private readonly (int Start, int Turn, int End)[] _owned;
    private readonly Action<int> _hashStep, _scatterStep, _addStep;
    private WorkerGang? _gang;
    private ulong[] _hashes = [];
    private ulong[] _grouped = [];

    // The batch in hand, read by every participant's steps.
    private StreamNameBatch? _batch;
    private BloomLines? _lines;
    private ulong _seed;
    private int _threads, _regions, _regionShift;
    private ulong _ownerMultiplier; // for OwnerOf: 2^64 / _threads, rounded up

    /// <param name="threads">The most threads a batch is added with (the calling one included).</param>
    /// <param name="partition">False adds in log order (one region): the rejected design, kept for the <c>scale</c> experiment.</param>
    public RegionAdder(int threads, bool partition = true)
    {
        _maxThreads = Math.Max(1, threads);
        _partition = partition;
        _counts = new int[_maxThreads][];
        _offsets = new int[_maxThreads][];
        for (int t = 0; t < _maxThreads; t++)
        {
            _counts[t] = new int[_maxThreads * MaxRegions];
            _offsets[t] = new int[_maxThreads * MaxRegions];
        }

        _owned = new (int, int, int)[_maxThreads];
        _hashStep = HashAndCount;
        _scatterStep = Scatter;
        _addStep = AddOwned;
    }

    /// <summary>
    /// The catch-up's read buffer for a file of <paramref name="lineCount"/> lines: a name per 16 lines, from 4,096 (the
    /// default batch) to 1M (48 MB of names, 4 MB of lengths, 16 MB of hashes). A region then gets about a thousand
    /// adds per batch, four per page, so the batch walks the file in order rather than at random.
    /// </summary>
    public static StreamNameBatch BatchFor(uint lineCount)
    {
        int records = (int)Math.Clamp(lineCount / 16, 4096, 1 << 20);
        return new StreamNameBatch(records, records * 48);
    }

    /// <summary>Adds every name of <paramref name="batch"/> (hashed with <paramref name="seed"/>) to <paramref name="lines"/>.</summary>
    public void Add(BloomLines lines, ulong seed, StreamNameBatch batch)
    {
        int count = batch.Count;
        if (_hashes.Length < count)
        {
            // Sized once, to the catch-up's batch: later batches allocate nothing.
            _hashes = GC.AllocateUninitializedArray<ulong>(batch.Capacity);
            _grouped = GC.AllocateUninitializedArray<ulong>(batch.Capacity);
        }

        (_batch, _lines, _seed) = (batch, lines, seed);
        _threads = count >= ParallelMinimum ? _maxThreads : 1;
        _ownerMultiplier = FastModMultiplier((uint)_threads);
        _regionShift = lines.RegionShift;
        _regions = _partition ? lines.Regions : 1;
        try
        {
            if (_threads == 1 && _regions == 1)
            {
                // One bucket (a file of one region, or no partition): the hashes are already in order.
                HashAndCount(0);
                lines.AddGrouped(_hashes.AsSpan(0, count));
            }
            else if (_threads == 1)
            {
                HashAndCount(0);
                Scatter(0);
                AddOwned(0);
            }
            else
            {
                _gang ??= new WorkerGang(_maxThreads, "EventFilter catch-up");
                _gang.Run(_hashStep);
                _gang.Run(_scatterStep);
                _gang.Run(_addStep);
            }
        }
        finally
        {
            (_batch, _lines) = (null, null);
        }
    }

    public void Dispose() => _gang?.Dispose();

    // Step 1: hash this participant's slice of the names, and count its hashes per bucket (owner, then region).
    private void HashAndCount(int t)
    {
        ReadOnlySpan<byte> names = _batch!.Names;
        ReadOnlySpan<int> lengths = _batch.Lengths;
        (int from, int to) = Slice(lengths.Length, t);
        int offset = 0;
        foreach (int length in lengths[..from])
        {
            offset += length;
        }

        Span<int> counts = _counts[t].AsSpan(0, _threads * _regions);
        counts.Clear();
        for (int i = from; i < to; i++)
        {
            ulong hash = KeyHasher.Hash(names.Slice(offset, lengths[i]), _seed);
            offset += lengths[i];
            _hashes[i] = hash;
            counts[Bucket(hash)]++;
        }
    }

    // Step 2: every participant works out where its hashes of each bucket go (after the lower buckets, and after the
    // lower participants' hashes of the same bucket), then copies them there; it notes the span of the buckets it owns.
    private void Scatter(int t)
    {
        int buckets = _threads * _regions;
        Span<int> offsets = _offsets[t].AsSpan(0, buckets);
        int next = 0;
        for (int b = 0; b < buckets; b++)
        {
            if (b == t * _regions)
            {
                _owned[t].Start = next;
            }

            if (b == (t * _regions) + FirstRegion(t))
            {
                _owned[t].Turn = next;
            }

            for (int other = 0; other < _threads; other++)
            {
                if (other == t)
                {
                    offsets[b] = next;
                }

                next += _counts[other][b];
            }

            if (b == ((t + 1) * _regions) - 1)
            {
                _owned[t].End = next;
            }
        }

        (int from, int to) = Slice(_batch!.Count, t);
        for (int i = from; i < to; i++)
        {
            ulong hash = _hashes[i];
            _grouped[offsets[Bucket(hash)]++] = hash;
        }
    }

    // Step 3: add the buckets this participant owns, region by region, from its first region round to the one before.
    private void AddOwned(int t)
    {
        (int start, int turn, int end) = _owned[t];
        _lines!.AddGrouped(_grouped.AsSpan(turn, end - turn));
        _lines.AddGrouped(_grouped.AsSpan(start, turn - start));
    }

    // Where participant t starts its walk of the regions: each in its own part of the file, so that no two walk the
    // same region at once. Their lines are disjoint anyway, but a word of changed-line marks covers 64 lines and a
    // cache line of them 512: in one region at the same time, two threads would pass those back and forth.
    private int FirstRegion(int t) => (int)((long)_regions * t / _threads);

    private int Bucket(ulong hash)
    {
        uint line = _lines!.LineOfKey(hash);
        int region = _regions == 1 ? 0 : (int)(line >> _regionShift);
        // The owner is the 64-line group mod _threads, without a divide: the scatter step is a few instructions per
        // name, and a hardware divide in it made that step slower on two threads than on one (at 1 GiB: 3.1 ns per
        // name on one thread, 5.2 on two, 2.5 on two without the divide).
        return _threads == 1 ? region : ((int)FastMod(line >> 6, _ownerMultiplier, (uint)_threads) * _regions) + region;
    }

    /// <summary>The multiplier for <see cref="FastMod"/> by <paramref name="divisor"/>: 2^64 / divisor, rounded up.</summary>
    internal static ulong FastModMultiplier(uint divisor) => (ulong.MaxValue / divisor) + 1;

    /// <summary><paramref name="value"/> mod <paramref name="divisor"/> with two multiplies (Lemire's "fastmod", exact for 32-bit operands).</summary>
    internal static uint FastMod(uint value, ulong multiplier, uint divisor) =>
        (uint)Math.BigMul(multiplier * value, divisor, out _);

    private (int From, int To) Slice(int count, int t) =>
        ((int)((long)count * t / _threads), (int)((long)count * (t + 1) / _threads));
}
