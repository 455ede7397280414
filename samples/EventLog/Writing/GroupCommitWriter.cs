using System.Threading.Channels;
using EventFilter;
using EventLog.Errors;
using EventLog.Index;
using EventLog.Streams;

namespace EventLog.Writing;

/// <summary>
/// The single writer. It takes every append queued since its last commit (up to a byte budget), checks each one's
/// expected version against the stream's current last event number, encodes the winners, writes them with one write
/// and one fsync, then updates the memtable and cache and only then completes the callers' tasks. One writer decides
/// every event number, so concurrent appends to one stream can never both win. See README.md, "Durability".
/// It is the stream-existence filter's one writer too: it adds every appended name and reports every cut of the log
/// (the torn tail cut on open, and a failed commit cut back), as the host contract asks (docs/design.md).
/// </summary>
internal sealed partial class GroupCommitWriter : IAsyncDisposable
{
    private readonly Channel<PendingAppend> _queue;
    private readonly RecordBuffer _buffer;
    private readonly IStreamExistenceFilter? _filter;
    private readonly StreamVersions _versions;
    private readonly StreamIndex _index;
    private readonly IndexMaintenance _maintenance;
    private readonly TimeProvider _time;
    private readonly int _memTableEntries;
    private readonly int _maxBatchBytes;
    private readonly Dictionary<string, long> _batchVersions = new(StringComparer.Ordinal);
    private readonly List<PendingAppend> _batch = [];
    private readonly Task _loop;
    private volatile Exception? _failure;
    private AppendOutcomeUnknownException? _outcomeUnknown; // the commit failed and so did cutting it back
    private long _commits;
    private long _appends;

    public GroupCommitWriter(RecordBuffer buffer, IStreamExistenceFilter? filter, LogRecovery opened, StreamVersions versions, StreamIndex index, IndexMaintenance maintenance, EventLogOptions options)
    {
        _buffer = buffer;
        _filter = filter;
        if (filter is not null && opened.TruncatedBytes > 0)
        {
            filter.TruncateTo(opened.End); // a no-op unless a checkpoint claimed the cut tail
        }

        _versions = versions;
        _index = index;
        _maintenance = maintenance;
        _time = options.TimeProvider;
        _memTableEntries = options.MemTableEntries;
        _maxBatchBytes = options.MaxGroupCommitBytes;
        _queue = Channel.CreateBounded<PendingAppend>(new BoundedChannelOptions(options.MaxQueuedAppends) { SingleReader = true });
        _loop = Task.Run(RunAsync);
    }

    /// <summary>The stream-existence filter it adds names to; null for none.</summary>
    public IStreamExistenceFilter? Filter => _filter;

    /// <summary>Why the writer stopped taking appends; null while it runs.</summary>
    public Exception? Failure => _failure;

    /// <summary>Group commits (fsyncs) done.</summary>
    public long Commits => Interlocked.Read(ref _commits);

    /// <summary>Appends written.</summary>
    public long Appends => Interlocked.Read(ref _appends);

    /// <summary>Queues the append and waits until it is durable (or rejected).</summary>
    public async Task<AppendResult> AppendAsync(PendingAppend append)
    {
        try
        {
            await _queue.Writer.WriteAsync(append, append.CancellationToken).ConfigureAwait(false);
        }
        catch (ChannelClosedException)
        {
            throw _failure is { } failure ? Stopped(failure) : new EngineStoppedException("The event log engine was stopped; it takes no more appends.");
        }

        return await append.Completion.ConfigureAwait(false);
    }

    /// <summary>Stops taking appends, commits everything already queued, and waits for the writer to finish.</summary>
    public async ValueTask DisposeAsync()
    {
        _queue.Writer.TryComplete();
        await _loop.ConfigureAwait(false);
    }

    private async Task RunAsync()
    {
        ChannelReader<PendingAppend> reader = _queue.Reader;
        try
        {
            while (await reader.WaitToReadAsync().ConfigureAwait(false))
            {
                TakeBatch(reader);
                await CommitAsync().ConfigureAwait(false);
            }
        }
        catch (Exception error)
        {
            // A disk that has just failed a write is not written to again: stop, and let a restart's recovery check
            // the tail. The failed commit was cut back (CommitAsync), so its appends are refused like the queued ones,
            // unless the cut failed: then those it handed to the disk may be in the log after the restart.
            _failure = error;
            _queue.Writer.TryComplete(error);
            EngineStoppedException stopped = Stopped(error);
            foreach (PendingAppend append in _batch)
            {
                append.Fail(append.Encoded && _outcomeUnknown is { } unknown ? unknown : stopped);
            }

            while (reader.TryRead(out PendingAppend? queued))
            {
                queued.Fail(stopped);
            }
        }
    }

    private void TakeBatch(ChannelReader<PendingAppend> reader)
    {
        _batch.Clear();
        long bytes = 0;
        while (bytes < _maxBatchBytes && reader.TryRead(out PendingAppend? append))
        {
            _batch.Add(append);
            bytes += append.RecordBytes;
        }
    }

    // Says plainly what the operator must do: the engine does not resume by itself, because a disk that has just
    // failed a write may fail the next; a restart's recovery checks the log's tail.
    private static EngineStoppedException Stopped(Exception cause) =>
        new($"The event log engine takes no more appends until it is restarted: a write failed ({cause.Message}). This append was not written. Fix the cause (free disk space), then restart; recovery keeps every acknowledged append.", cause);

    private static AppendOutcomeUnknownException OutcomeUnknown(Exception cause, Exception cutFailed) =>
        new($"The outcome of this append is unknown: a write failed ({cause.Message}) and cutting the log back to its last acknowledged append failed too ({cutFailed.Message}), so the append may or may not be in the log after a restart. Read the stream after the restart to find out. The event log engine takes no more appends until it is restarted.", new AggregateException(cause, cutFailed));
}
