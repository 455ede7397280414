using System.Collections.Concurrent;
using System.Text;

namespace EventFilter.Specification;

/// <summary>
/// The <see cref="IStreamExistenceFilter"/> the host is started with: it forwards every call to the kit's
/// <see cref="StreamExistenceFilter"/> and records each add, so the kit can check the names and ends the host gave.
/// The kit can swap the filter behind it (a resize reopens the filter at another size while the host runs) and can
/// play a crash: from then on nothing reaches the filter, as nothing reaches the disk of a dead process.
/// </summary>
internal sealed class FilterUnderTest(ConcurrentQueue<(string Stream, long RecordEnd)> adds) : IStreamExistenceFilter
{
    // Adds hold it for reading, so a swap (which holds it for writing) never lands between an add and its filter.
    private readonly ReaderWriterLockSlim _swap = new(LockRecursionPolicy.SupportsRecursion);
    private StreamExistenceFilter? _filter;
    private volatile bool _crashed;
    private volatile AddHold? _hold;

    // One waiter for WhenMoreAdds: the count the adds must reach (written before the signal is published), and the signal.
    private int _addsAwaited;
    private TaskCompletionSource? _addsReached;

    /// <summary>Each add the host made in this test, across restarts: the stream and the record end it gave.</summary>
    public ConcurrentQueue<(string Stream, long RecordEnd)> Adds => adds;

    /// <summary>Hears each truncation the host reports, before the filter does.</summary>
    public Action<long>? Truncated { get; set; }

    /// <summary>An add the host made before the kit opened the filter (rule 1), or null.</summary>
    public string? AddedBeforeOpen { get; private set; }

    public FilterState State => _filter?.State ?? FilterState.Initializing;

    public Task WhenReady => _filter?.WhenReady ?? Task.CompletedTask;

    public long? CheckpointPosition => _filter?.CheckpointPosition;

    /// <summary>Puts <paramref name="filter"/> (opened) behind the host's calls.</summary>
    public void Attach(StreamExistenceFilter filter) => Swap(() => _filter = filter);

    /// <summary>Runs <paramref name="change"/> while no host call is inside the filter.</summary>
    public void Swap(Action change)
    {
        _swap.EnterWriteLock();
        try
        {
            change();
        }
        finally
        {
            _swap.ExitWriteLock();
        }
    }

    /// <summary>Holds the host's next add of <paramref name="stream"/> inside <c>Add</c> until the returned hold is released.</summary>
    public AddHold HoldAddOf(string stream) => _hold = new AddHold(stream);

    /// <summary>Completes once the host has made <paramref name="more"/> adds after this call: a point part-way through a load.</summary>
    public Task WhenMoreAdds(int more)
    {
        var reached = new TaskCompletionSource(TaskCreationOptions.RunContinuationsAsynchronously);
        Volatile.Write(ref _addsAwaited, Adds.Count + more);
        Volatile.Write(ref _addsReached, reached);
        return reached.Task;
    }

    /// <summary>From now on, nothing the host calls reaches the filter.</summary>
    public void Crash() => _crashed = true;

    public bool MightExist(ReadOnlySpan<char> streamName) => _filter?.MightExist(streamName) ?? true;

    public bool MightExist(ReadOnlySpan<byte> utf8StreamName) => _filter?.MightExist(utf8StreamName) ?? true;

    public void MightExist(ReadOnlySpan<string> streamNames, Span<bool> results)
    {
        if (_filter is { } filter)
        {
            filter.MightExist(streamNames, results);
            return;
        }

        results[..streamNames.Length].Fill(true);
    }

    public void Add(ReadOnlySpan<char> streamName, long recordEnd) => Add(streamName.ToString(), recordEnd);

    public void Add(ReadOnlySpan<byte> utf8StreamName, long recordEnd) => Add(Encoding.UTF8.GetString(utf8StreamName), recordEnd);

    public void Checkpoint(long position) => Forward(filter => filter.Checkpoint(position));

    public void TruncateTo(long position)
    {
        if (!_crashed)
        {
            Truncated?.Invoke(position);
        }

        Forward(filter => filter.TruncateTo(position));
    }

    private void Add(string stream, long recordEnd)
    {
        if (_hold is { } hold && hold.Stream == stream)
        {
            _hold = null;
            hold.Hold(recordEnd); // outside the swap lock: a resize must not wait for the kit's release
        }

        if (_crashed)
        {
            return;
        }

        Adds.Enqueue((stream, recordEnd));
        if (Volatile.Read(ref _addsReached) is { } reached && Adds.Count >= Volatile.Read(ref _addsAwaited))
        {
            reached.TrySetResult();
        }

        _swap.EnterReadLock();
        try
        {
            if (_filter is null)
            {
                AddedBeforeOpen ??= stream;
                throw new InvalidOperationException($"{HostContractRules.Rule1}: the host added '{stream}' before the filter was opened.");
            }

            _filter.Add(stream, recordEnd);
        }
        finally
        {
            _swap.ExitReadLock();
        }
    }

    // Checkpoints and truncations before the filter is open change nothing: it reads the log's end when it opens.
    private void Forward(Action<StreamExistenceFilter> call)
    {
        if (_crashed)
        {
            return;
        }

        _swap.EnterReadLock();
        try
        {
            if (_filter is { } filter)
            {
                call(filter);
            }
        }
        finally
        {
            _swap.ExitReadLock();
        }
    }
}
