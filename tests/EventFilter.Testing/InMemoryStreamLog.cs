using System.Text;

namespace EventFilter.Testing;

/// <summary>
/// A host log in memory: record i sits at position i. Counts the records catch-up reads; can fail reading at a chosen
/// position (a crash of the reader, a broken disk), or hold reads at a gate the test controls, asynchronously
/// (<see cref="Gate"/>) or by blocking the reading thread (<see cref="SynchronousGate"/>). Records can also be appended
/// but not yet durable (<see cref="AppendPending"/>), as a group-commit host's are between its write and its fsync.
/// </summary>
public sealed class InMemoryStreamLog : IStreamNameLog
{
    private readonly List<byte[]> _names = [];
    private long _recordsRead;
    private int _pending;

    /// <summary>The durable end: records pending an fsync are not below it, and reads do not return them.</summary>
    public long EndPosition
    {
        get
        {
            lock (_names)
            {
                return _names.Count - _pending;
            }
        }
    }

    public long RecordsRead => Interlocked.Read(ref _recordsRead);

    /// <summary>Reading at or past this position throws.</summary>
    public long FailAt { get; set; } = long.MaxValue;

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

    public long Append(string name)
    {
        lock (_names)
        {
            if (_pending > 0)
            {
                throw new InvalidOperationException("records are pending: call MakeDurable first, as a log appends in order");
            }

            _names.Add(Encoding.UTF8.GetBytes(name));
            return _names.Count;
        }
    }

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
