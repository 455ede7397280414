namespace EventFilter.Specification.MutationTests;

/// <summary>
/// A host over an <see cref="InMemoryStreamLog"/> (record i at position i, so its end is i + 1) with one writer that
/// appends, adds and makes durable, as a group commit does; or, with a <see cref="Mutation"/>, broken in one way.
/// </summary>
internal sealed class InMemoryHost(InMemoryStreamLog log, IStreamExistenceFilter filter, Mutation mutation) : IHostUnderTest
{
    private readonly SemaphoreSlim _writer = new(1, 1);
    private readonly TaskCompletionSource _stopRequested = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private (string Stream, long End)? _deferred;
    private long _appends;
    private bool _stopped;

    public IStreamNameLog Log { get; } = BrokenLogs.For(log, mutation);

    public static InMemoryHost Start(InMemoryStreamLog log, IStreamExistenceFilter filter, Mutation mutation)
    {
        var host = new InMemoryHost(log, filter, mutation);
        if (mutation == Mutation.AddsWhileStarting)
        {
            filter.Add("host-started", log.Append("host-started"));
        }

        return host;
    }

    public async Task AppendAsync(string streamName, CancellationToken cancellationToken)
    {
        if (mutation == Mutation.AppendsAfterStopping)
        {
            // Held until the stop, then let through once the filter has closed: what a host that does not wait for its
            // in-flight appends does when they finish late.
            await _stopRequested.Task.WaitAsync(cancellationToken);
            while (filter.State != FilterState.Stopped)
            {
                await Task.Delay(1, cancellationToken);
            }

            filter.Add(streamName, log.Append(streamName));
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
            log.TruncateTo(position);
            if (mutation != Mutation.CutsWithoutTelling)
            {
                filter.TruncateTo(position);
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
        if (mutation == Mutation.AppendsAfterStopping)
        {
            return;
        }

        await _writer.WaitAsync();
        _stopped = true;
        _writer.Release();
    }

    private void Write(string stream)
    {
        switch (mutation)
        {
            case Mutation.SkipsSomeAdds:
                long end = log.AppendPending(stream);
                if (++_appends % 10 != 0)
                {
                    filter.Add(stream, end);
                }

                log.MakeDurable();
                return;
            case Mutation.GivesTheRecordStart:
                filter.Add(stream, log.AppendPending(stream) - 1);
                log.MakeDurable();
                return;
            case Mutation.GivesTheDurableEnd:
                long durableBefore = log.EndPosition;
                log.AppendPending(stream);
                filter.Add(stream, durableBefore);
                log.MakeDurable();
                return;
            case Mutation.AddsOutOfOrderAroundItsCheckpoint:
                long durable = log.Append(stream);
                if (_deferred is not { } first)
                {
                    _deferred = (stream, durable);
                    return;
                }

                filter.Add(stream, durable);
                filter.Checkpoint(log.EndPosition);
                filter.Add(first.Stream, first.End);
                _deferred = null;
                return;
            default:
                filter.Add(stream, log.AppendPending(stream));
                log.MakeDurable();
                return;
        }
    }
}
