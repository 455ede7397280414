using System.Text;

namespace EventFilter.Benchmarks.Workload;

/// <summary>
/// A log in memory that other code appends to while filters read it, with the append signal a database's notification
/// would give (<see cref="IStreamNameLogSignal"/>): record i at position i, ending at i + 1. For the <c>follow</c>
/// experiment. Names are made up front, so an append costs a store and a signal, nothing the follower would pay for.
/// </summary>
public sealed class GrowingLog : IStreamNameLog, IStreamNameLogSignal
{
    private readonly byte[][] _names;
    private long _end;
    private TaskCompletionSource _appended = new(TaskCreationOptions.RunContinuationsAsynchronously);

    public GrowingLog(int capacity, string prefix)
    {
        _names = new byte[capacity][];
        for (int i = 0; i < capacity; i++)
        {
            _names[i] = Encoding.ASCII.GetBytes($"{prefix}-{i:D12}-7f3c4e8a9c6f5b3d2f1c-stream");
        }
    }

    public long EndPosition => Volatile.Read(ref _end);

    public int Capacity => _names.Length;

    public string NameAt(long position) => Encoding.ASCII.GetString(_names[position]);

    /// <summary>Makes the next <paramref name="records"/> names durable at once and signals; returns the new end.</summary>
    public long Grow(int records)
    {
        long end = Interlocked.Add(ref _end, records);
        Interlocked.Exchange(ref _appended, new(TaskCreationOptions.RunContinuationsAsynchronously)).TrySetResult();
        return end;
    }

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        long position = fromPosition, end = EndPosition;
        while (position < end && batch.TryAdd(_names[position]))
        {
            position++;
        }

        batch.NextPosition = position;
        return ValueTask.CompletedTask;
    }

    public async ValueTask WaitForAppendAsync(long endPosition, CancellationToken cancellationToken)
    {
        // The signal first, then the end: an append between the two completes the signal taken.
        Task appended = Volatile.Read(ref _appended).Task;
        if (EndPosition > endPosition)
        {
            return;
        }

        await appended.WaitAsync(cancellationToken).ConfigureAwait(false);
    }
}
