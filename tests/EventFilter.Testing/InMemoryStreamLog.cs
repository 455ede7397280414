using System.Text;

namespace EventFilter.Testing;

/// <summary>
/// A host log in memory: record i sits at position i. Counts the records catch-up reads; can fail reading at a chosen
/// position (a crash of the reader, a broken disk), or hold reads at a gate the test controls, asynchronously
/// (<see cref="Gate"/>) or by blocking the reading thread (<see cref="SynchronousGate"/>). Records can also be appended
/// but not yet durable (<see cref="AppendPending"/>), as a group-commit host's are between its write and its fsync.
/// </summary>
public sealed class InMemoryStreamLog : IStreamNameLog, IStreamNameLogSignal
{
    private readonly List<byte[]> _names = [];
    private TaskCompletionSource _appended = new(TaskCreationOptions.RunContinuationsAsynchronously);
    private long _recordsRead;
    private int _pending;

    /// <summary>The durable end: records pending an fsync are not below it, and reads do not return them.</summary>
    public long EndPosition
    {
        get
        {
            if (EndFails)
            {
                throw new IOException("simulated: the log's end cannot be read");
            }

            lock (_names)
            {
                return _names.Count - _pending;
            }
        }
    }

    public long RecordsRead => Interlocked.Read(ref _recordsRead);

    /// <summary>Reading at or past this position throws.</summary>
    public long FailAt { get; set; } = long.MaxValue;

    /// <summary>While above 0, each read (and each read of the end, with <see cref="EndFails"/>) throws an IOException and counts it down.</summary>
    public int FailNextReads
    {
        get => Volatile.Read(ref _failNextReads);
        set => Volatile.Write(ref _failNextReads, value);
    }

    private int _failNextReads;

    /// <summary>While set, reading <see cref="EndPosition"/> throws too (a database that is down).</summary>
    public bool EndFails { get; set; }

    /// <summary>Reads the log has failed on purpose so far.</summary>
    public int FailedReads => Volatile.Read(ref _failedReads);

    private int _failedReads;

    /// <summary>A broken log: while set, reads return no record and do not move on, whatever the end says.</summary>
    public bool ReadsNothing { get; set; }

    /// <summary>Records per read; small values make catch-up checkpoint more often.</summary>
    public int MaxPerRead { get; set; } = 1000;

    /// <summary>While set and not completed, reads wait on it.</summary>
    public TaskCompletionSource? Gate { get; set; }

    /// <summary>
    /// While set and not signalled, a read blocks its thread on it (a log that answers synchronously, but slowly).
    /// A read held for a minute gives up with an error, so a test that never opens the gate fails instead of hanging.
    /// </summary>
    public ManualResetEventSlim? SynchronousGate { get; set; }

    public static string Name(int i) => $"stream-{i}";

    /// <summary>The name of the record that ends at <paramref name="end"/> (record end - 1 is its index).</summary>
    public string NameEndingAt(long end)
    {
        lock (_names)
        {
            return Encoding.UTF8.GetString(_names[(int)end - 1]);
        }
    }

    public long Append(string name)
    {
        lock (_names)
        {
            if (_pending > 0)
            {
                throw new InvalidOperationException("records are pending: call MakeDurable first, as a log appends in order");
            }

            _names.Add(Encoding.UTF8.GetBytes(name));
            Signal();
            return _names.Count;
        }
    }

    /// <summary>Completes once the durable end is past <paramref name="endPosition"/>: the log's own append signal.</summary>
    public async ValueTask WaitForAppendAsync(long endPosition, CancellationToken cancellationToken)
    {
        Task appended;
        lock (_names)
        {
            if (_names.Count - _pending > endPosition)
            {
                return;
            }

            appended = _appended.Task;
        }

        await appended.WaitAsync(cancellationToken).ConfigureAwait(false);
    }

    // Under the lock: wakes every waiter on the appends so far, and arms the signal for the next.
    private void Signal() => Interlocked.Exchange(ref _appended, new(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();

    /// <summary>Appends a record that is not durable (not readable, not below <see cref="EndPosition"/>) until <see cref="MakeDurable"/>.</summary>
    public long AppendPending(string name)
    {
        lock (_names)
        {
            _names.Add(Encoding.UTF8.GetBytes(name));
            _pending++;
            return _names.Count;
        }
    }

    /// <summary>The host's fsync: every pending record becomes durable.</summary>
    public void MakeDurable()
    {
        lock (_names)
        {
            _pending = 0;
            Signal();
        }
    }

    /// <summary>Appends records named <see cref="Name"/>(from) onwards, adding each to <paramref name="filter"/> first if given.</summary>
    public void AppendRange(int from, int count, IStreamExistenceFilter? filter = null)
    {
        for (int i = from; i < from + count; i++)
        {
            // The filter first: a checkpoint at EndPosition must find every name before it already added. Record i
            // sits at position i, so it ends at i + 1.
            filter?.Add(Name(i), i + 1);
            Append(Name(i));
        }
    }

    public void TruncateTo(long position)
    {
        lock (_names)
        {
            _names.RemoveRange((int)position, _names.Count - (int)position);
            _pending = 0;
        }
    }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        if (Gate is { } gate && !gate.Task.IsCompleted)
        {
            return ReadAfterAsync(gate.Task, fromPosition, batch, cancellationToken);
        }

        if (SynchronousGate is { } blocking && !blocking.Wait(TimeSpan.FromMinutes(1), cancellationToken))
        {
            throw new TimeoutException("a read was held at the gate for a minute: the test never opened it");
        }

        Read(fromPosition, batch);
        return ValueTask.CompletedTask;
    }

    private async ValueTask ReadAfterAsync(Task gate, long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        await gate.WaitAsync(cancellationToken).ConfigureAwait(false);
        Read(fromPosition, batch);
    }

    private void Read(long fromPosition, StreamNameBatch batch)
    {
        for (int left = FailNextReads; left > 0; left = FailNextReads)
        {
            if (Interlocked.CompareExchange(ref _failNextReads, left - 1, left) == left)
            {
                Interlocked.Increment(ref _failedReads);
                throw new IOException($"simulated: the connection to the log dropped while reading at {fromPosition}");
            }
        }

        if (fromPosition >= FailAt)
        {
            throw new IOException($"simulated log read failure at {fromPosition}");
        }

        if (ReadsNothing)
        {
            batch.NextPosition = fromPosition;
            return;
        }

        lock (_names)
        {
            long position = fromPosition;
            while (position < _names.Count - _pending && position < FailAt && position - fromPosition < MaxPerRead && batch.TryAdd(_names[(int)position]))
            {
                position++;
            }

            Interlocked.Add(ref _recordsRead, position - fromPosition);
            batch.NextPosition = position;
        }
    }
}
