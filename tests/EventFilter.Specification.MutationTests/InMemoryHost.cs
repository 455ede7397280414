namespace EventFilter.Specification.MutationTests;

/// <summary>
/// One process of a host over a <see cref="SharedInMemoryLog"/> (record i at position i, so its end is i + 1) with one
/// writer that appends, adds and makes durable, as a group commit does; or, with a <see cref="Mutation"/>, broken in
/// one way. Several started over one shared log are several processes over one log, each with its own writer.
/// </summary>
internal sealed class InMemoryHost : IHostUnderTest
{
    private readonly SharedInMemoryLog _shared;
    private readonly InMemoryStreamLog _log;
    private readonly IStreamExistenceFilter _filter;
    private readonly Mutation _mutation;
    private readonly int _slot;
    private readonly ProcessLogs.OwnEndLog? _ownEnd;
    private readonly SemaphoreSlim _writer = new(1, 1);
    private readonly TaskCompletionSource _stopRequested = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private (string Stream, long End)? _deferred;
    private long _appends;
    private bool _stopped;
    private int _slotFreed;

    private InMemoryHost(SharedInMemoryLog shared, IStreamExistenceFilter filter, Mutation mutation)
    {
        (_shared, _log, _filter, _mutation) = (shared, shared.Records, filter, mutation);
        _slot = shared.TakeSlot();
        Log = mutation switch
        {
            Mutation.ReadsOnlyItsOwnRecords => new ProcessLogs.OwnRecordsLog(shared, _slot),
            Mutation.EndCoversOnlyItsOwnAppends => _ownEnd = new ProcessLogs.OwnEndLog(_log),
            _ => BrokenLogs.For(_log, mutation),
        };
    }

    public IStreamNameLog Log { get; }

    public static InMemoryHost Start(SharedInMemoryLog shared, IStreamExistenceFilter filter, Mutation mutation)
    {
        var host = new InMemoryHost(shared, filter, mutation);
        if (mutation == Mutation.AddsWhileStarting)
        {
            filter.Add("host-started", shared.Records.Append("host-started"));
        }

        return host;
    }

    public async Task AppendAsync(string streamName, CancellationToken cancellationToken)
    {
        if (_mutation == Mutation.AppendsAfterStopping)
        {
            // Held until the stop, then let through once the filter has closed: what a host that does not wait for its
            // in-flight appends does when they finish late.
            await _stopRequested.Task.WaitAsync(cancellationToken);
            while (_filter.State != FilterState.Stopped)
            {
                await Task.Delay(1, cancellationToken);
            }

            _filter.Add(streamName, _log.Append(streamName));
            return;
        }

        await _writer.WaitAsync(cancellationToken);
        try
        {
            ObjectDisposedException.ThrowIf(_stopped, this);
            Write(streamName);
        }
        finally
        {
            _writer.Release();
        }
    }

    public async ValueTask<bool> TryCutLogAsync(long position)
    {
        await _writer.WaitAsync();
        try
        {
            _log.TruncateTo(position);
            _ownEnd?.Refresh();
            if (_mutation != Mutation.CutsWithoutTelling)
            {
                _filter.TruncateTo(position);
            }

            return true;
        }
        finally
        {
            _writer.Release();
        }
    }

    public async ValueTask DisposeAsync()
    {
        _stopRequested.TrySetResult();
        if (_mutation != Mutation.AppendsAfterStopping)
        {
            await _writer.WaitAsync();
            _stopped = true;
            _writer.Release();
        }

        // Once stopped: a process restarted into the slot must not find this one still writing as itself.
        if (Interlocked.Exchange(ref _slotFreed, 1) == 0)
        {
            _shared.FreeSlot(_slot);
        }
    }

    private void Write(string stream)
    {
        switch (_mutation)
        {
            case Mutation.SkipsSomeAdds:
                long end = _log.AppendPending(stream);
                if (++_appends % 10 != 0)
                {
                    _filter.Add(stream, end);
                }

                _log.MakeDurable();
                return;
            case Mutation.GivesTheRecordStart:
                _filter.Add(stream, _log.AppendPending(stream) - 1);
                _log.MakeDurable();
                return;
            case Mutation.GivesTheDurableEnd:
                long durableBefore = _log.EndPosition;
                _log.AppendPending(stream);
                _filter.Add(stream, durableBefore);
                _log.MakeDurable();
                return;
            case Mutation.AddsOutOfOrderAroundItsCheckpoint:
                long durable = _log.Append(stream);
                if (_deferred is not { } first)
                {
                    _deferred = (stream, durable);
                    return;
                }

                _filter.Add(stream, durable);
                _filter.Checkpoint(_log.EndPosition);
                _filter.Add(first.Stream, first.End);
                _deferred = null;
                return;
            default:
                long recordEnd = _log.AppendPending(stream);
                _shared.Appended(_slot, recordEnd);
                _filter.Add(stream, recordEnd);
                _log.MakeDurable();
                _ownEnd?.Refresh();
                return;
        }
    }
}
