using BenchmarkDotNet.Attributes;
using EventFilter.Benchmarks.Baseline;
using EventFilter.Benchmarks.Workload;

namespace EventFilter.Benchmarks.Micro;

/// <summary>
/// The host contract's cost on the hot path (docs/design.md, "Host contract"): <see cref="StreamExistenceFilter.Add(ReadOnlySpan{char}, long)"/>,
/// which keeps the record's end in the line's stripe, beside the add path the filter had before the end travelled with
/// the add (read the resize target, read the serving file, add to it), and beside what a host that adds before its
/// fsync paid then on top (its appended end published with a full fence before each add). New names, as in
/// <see cref="AddBenchmarks"/>, and known names, whose add changes no bit but must still raise the end.
/// </summary>
public class HostAddBenchmarks
{
    private const int Names = StreamNames.PoolSize;
    private const long ResetBelowBytes = 64L << 20;

    private PointerChaseBuffer? _chase;
    private StreamExistenceFilter? _filter;
    private string? _directory;
    private StreamNames _names = null!;
    private StreamNames _known = null!;
    private int _generation;
    private long _end;

    // The add path before this contract: a resize target (null when none runs) and the serving file, both volatile.
    private volatile FilterFile? _previousTarget;
    private volatile FilterFile? _previousServing;
    private long _appendedEnd;

    [Params(1, 256)]
    public int SizeMiB { get; set; }

    private long SizeBytes => (long)SizeMiB << 20;

    [GlobalSetup(Target = nameof(PointerChase))]
    public void SetupPointerChase() => _chase = new PointerChaseBuffer(SizeBytes, hugePages: false);

    [GlobalSetup(Targets = [nameof(AddWithRecordEnd), nameof(AddKnownWithRecordEnd), nameof(PreviousAdd), nameof(PreviousAddKnown), nameof(PreviousHostAdd)])]
    public void Setup()
    {
        _names = StreamNames.Fresh();
        _known = StreamNames.Hits(); // in every loaded filter
        Open();
    }

    [IterationSetup(Targets = [nameof(AddWithRecordEnd), nameof(PreviousAdd), nameof(PreviousHostAdd)])]
    public void NextNewNames()
    {
        _names.SetGeneration(++_generation);
        if (SizeBytes < ResetBelowBytes)
        {
            Close();
            Open();
        }
    }

    /// <summary>Does nothing: every case runs one invocation per iteration, so they share a summary group and its Ratio column.</summary>
    [IterationSetup(Targets = [nameof(PointerChase), nameof(AddKnownWithRecordEnd), nameof(PreviousAddKnown)])]
    public void SameIterationShape()
    {
    }

    /// <summary>One dependent random access per name over a buffer of the filter's size: the physical limit.</summary>
    [Benchmark(Baseline = true, OperationsPerInvoke = Names)]
    public uint PointerChase() => _chase!.Walk(Names);

    [Benchmark(OperationsPerInvoke = Names)]
    public long AddWithRecordEnd() => AddWithEnds(_names.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int PreviousAdd() => AddThePreviousWay(_names.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int PreviousHostAdd()
    {
        int changed = 0;
        foreach (string name in _names.Strings)
        {
            Interlocked.Exchange(ref _appendedEnd, ++_end);
            FilterFile? target = _previousTarget;
            FilterFile? serving = _previousServing;
            target?.Add(name);
            changed += serving!.Add(name) ? 1 : 0;
        }

        return changed;
    }

    /// <summary>Names the loaded filter holds: no bit changes, but each add's end is higher, so it takes the stripe.</summary>
    [Benchmark(OperationsPerInvoke = Names)]
    public long AddKnownWithRecordEnd() => AddWithEnds(_known.Strings);

    [Benchmark(OperationsPerInvoke = Names)]
    public int PreviousAddKnown() => AddThePreviousWay(_known.Strings);

    private long AddWithEnds(string[] names)
    {
        StreamExistenceFilter filter = _filter!;
        foreach (string name in names)
        {
            filter.Add(name, ++_end);
        }

        return _end;
    }

    private int AddThePreviousWay(string[] names)
    {
        int changed = 0;
        foreach (string name in names)
        {
            FilterFile? target = _previousTarget;
            FilterFile? serving = _previousServing;
            target?.Add(name);
            changed += serving!.Add(name) ? 1 : 0;
        }

        return changed;
    }

    [GlobalCleanup]
    public void Cleanup()
    {
        _chase?.Dispose();
        Close();
    }

    // The loaded filter copied in as a data directory's filter, opened and caught up over an empty log; the previous
    // path gets its own copy, so the two never share pages.
    private void Open()
    {
        _directory = BenchmarkDirectory.Scratch($"host-add-{_generation}");
        Directory.CreateDirectory(_directory);
        var options = new StreamExistenceFilterOptions { DataDirectory = _directory, SizeBytes = SizeBytes };
        File.Copy(LoadedFilters.EnsureBuilt(SizeBytes), options.FilterPath, overwrite: true);
        _filter = new StreamExistenceFilter(options, new PackedNameLog([]));
        _filter.Open();
        _filter.CatchUpAsync(CancellationToken.None).GetAwaiter().GetResult();
        _previousServing = LoadedFilters.OpenCopy(SizeBytes, "host-add-previous.filter");
        _previousTarget = null; // no resize under way, as in the common case
    }

    private void Close()
    {
        _filter?.Dispose();
        _filter = null;
        if (_previousServing is { } previous)
        {
            previous.Dispose();
            BenchmarkDirectory.DeleteQuietly(previous.Path);
            _previousServing = null;
        }

        if (_directory is not null)
        {
            Directory.Delete(_directory, recursive: true);
            _directory = null;
        }
    }
}
