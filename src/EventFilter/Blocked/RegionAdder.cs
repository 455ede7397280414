using EventFilter.Hashing;
using EventFilter.Threading;

namespace EventFilter.Blocked;

/// <summary>
/// Adds a large batch of names (a catch-up's) at the memory system's pace: hashes every name, partitions the hashes by
/// line region (a counting sort on the region, the line's high bits), then adds region by region, so that the adds
/// walk the file in order and their page walks hit the TLB instead of each taking a miss of its own. With more than
/// one thread, the names are hashed and partitioned in slices, and each thread adds the regions it owns: a run of
/// them, 1/threads of the file, so that with 2 or 4 threads no two share a stripe or a cache line of changed-line
/// marks, and each thread's adds walk the same pages in the same order as one thread's would. Every add still takes
/// its line's stripe, so host adds may race it. One per catch-up; not thread-safe. See docs/design.md, "Hot path".
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
    private readonly (int Start, int End)[] _owned;
    private readonly Action<int> _hashStep, _scatterStep, _addStep;
    private WorkerGang? _gang;
    private ulong[] _hashes = [];
    private ulong[] _grouped = [];

    // The batch in hand, read by every participant's steps.
    private StreamNameBatch? _batch;
    private BloomLines? _lines;
    private ulong _seed;
    private int _threads, _regions, _regionShift;

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
            _counts[t] = new int[MaxRegions];
            _offsets[t] = new int[MaxRegions];
        }

        _owned = new (int, int)[_maxThreads];
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
        _regionShift = lines.RegionShift;
        _regions = _partition ? lines.Regions : 1;
        // Each thread owns whole regions: with fewer regions than threads (a small file, or no partition), one adds all.
        _threads = count >= ParallelMinimum && _regions >= _maxThreads ? _maxThreads : 1;
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

    // Step 1: hash this participant's slice of the names, and count its hashes per region.
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

        Span<int> counts = _counts[t].AsSpan(0, _regions);
        counts.Clear();
        for (int i = from; i < to; i++)
        {
            ulong hash = KeyHasher.Hash(names.Slice(offset, lengths[i]), _seed);
            offset += lengths[i];
            _hashes[i] = hash;
            counts[Region(hash)]++;
        }
    }

    // Step 2: every participant works out where its hashes of each region go (after the lower regions, and after the
    // lower participants' hashes of the same region), then copies them there; it notes the span of the regions it owns.
    private void Scatter(int t)
    {
        Span<int> offsets = _offsets[t].AsSpan(0, _regions);
        int next = 0;
        for (int region = 0; region < _regions; region++)
        {
            if (region == FirstRegion(t))
            {
                _owned[t].Start = next;
            }

            for (int other = 0; other < _threads; other++)
            {
                if (other == t)
                {
                    offsets[region] = next;
                }

                next += _counts[other][region];
            }

            if (region == FirstRegion(t + 1) - 1)
            {
                _owned[t].End = next;
            }
        }

        (int from, int to) = Slice(_batch!.Count, t);
        for (int i = from; i < to; i++)
        {
            ulong hash = _hashes[i];
            _grouped[offsets[Region(hash)]++] = hash;
        }
    }

    // Step 3: add the regions this participant owns, in order.
    private void AddOwned(int t)
    {
        (int start, int end) = _owned[t];
        _lines!.AddGrouped(_grouped.AsSpan(start, end - start));
    }

    private int FirstRegion(int t) => FirstRegion(_regions, t, _threads);

    /// <summary>
    /// The first of <paramref name="regions"/> that participant <paramref name="t"/> of <paramref name="threads"/> owns:
    /// each owns a run of regions, 1/threads of the file, so that with 2 or 4 threads no two ever add under the same
    /// stripe (which covers 1/256 of the file) or to the same cache line of changed-line marks.
    /// </summary>
    internal static int FirstRegion(int regions, int t, int threads) => (int)((long)regions * t / threads);

    private int Region(ulong hash) => _regions == 1 ? 0 : (int)(_lines!.LineOfKey(hash) >> _regionShift);

    private (int From, int To) Slice(int count, int t) =>
        ((int)((long)count * t / _threads), (int)((long)count * (t + 1) / _threads));
}
