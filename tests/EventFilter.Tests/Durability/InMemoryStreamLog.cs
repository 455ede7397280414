using System.Text;
using EventFilter.Log;

namespace EventFilter.Tests.Durability;

/// <summary>
/// A host log in memory: record i sits at position i. Counts the records catch-up reads, and can fail or block
/// reading at a chosen position, to stop a catch-up halfway.
/// </summary>
public sealed class InMemoryStreamLog : IStreamNameLog
{
    private readonly List<byte[]> _names = [];
    private long _recordsRead;

    public long EndPosition
    {
        get
        {
            lock (_names)
            {
                return _names.Count;
            }
        }
    }

    public long RecordsRead => Interlocked.Read(ref _recordsRead);

    /// <summary>Reading at or past this position throws, like a crash of the reader.</summary>
    public long FailAt { get; set; } = long.MaxValue;

    /// <summary>Records per read; small values make catch-up checkpoint more often.</summary>
    public int MaxPerRead { get; set; } = 1000;

    public long Append(string name)
    {
        lock (_names)
        {
            _names.Add(Encoding.UTF8.GetBytes(name));
            return _names.Count;
        }
    }

    public void TruncateTo(long position)
    {
        lock (_names)
        {
            _names.RemoveRange((int)position, _names.Count - (int)position);
        }
    }

    /// <summary>
    /// While set and not signalled, a read blocks its thread on it (a log that answers synchronously, but slowly).
    /// A read held for a minute gives up with an error, so a test that never opens the gate fails instead of hanging.
    /// </summary>
    public ManualResetEventSlim? SynchronousGate { get; set; }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        if (SynchronousGate is { } gate && !gate.Wait(TimeSpan.FromMinutes(1), cancellationToken))
        {
            throw new TimeoutException("a read was held at the gate for a minute: the test never opened it");
        }

        if (fromPosition >= FailAt)
        {
            throw new IOException($"simulated reader failure at {fromPosition}");
        }

        lock (_names)
        {
            long position = fromPosition;
            while (position < _names.Count && position < FailAt && batch.Count < MaxPerRead && batch.TryAdd(_names[(int)position]))
            {
                position++;
            }

            Interlocked.Add(ref _recordsRead, position - fromPosition);
            batch.NextPosition = position;
        }

        return ValueTask.CompletedTask;
    }
}
