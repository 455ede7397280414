using System.Text;

namespace EventFilter.Tests.Durability;

/// <summary>
/// A log whose end and reads a test sets: records "name" ending at given positions; a read returns those past the
/// position it is given up to <see cref="ReadLimit"/> (by default the end), unless <see cref="Override"/> answers it.
/// Each read is counted, and <see cref="NextReadAsync"/> lets a test wait for the catch-up's next one.
/// </summary>
internal sealed class ScriptedLog(params (string Name, long End)[] records) : IStreamNameLog
{
    private readonly SemaphoreSlim _reads = new(0);
    private long _end = records.Length == 0 ? 0 : records[^1].End;
    private int _count;

    public long EndPosition
    {
        get
        {
            long end = Volatile.Read(ref _end);
            EndRead?.Invoke(end);
            return end;
        }
    }

    /// <summary>
    /// Runs at each read of the end, after the end was read and before the reader has it: what another thread does in
    /// the window between a read of the end and its use.
    /// </summary>
    public Action<long>? EndRead { get; set; }

    /// <summary>Reads return no record ending past this; null for the end.</summary>
    public long? ReadLimit { get; set; }

    /// <summary>Answers read number n (from 0) itself when it returns true.</summary>
    public Func<int, long, StreamNameBatch, bool>? Override { get; set; }

    public int Reads => Volatile.Read(ref _count);

    public void SetEnd(long end) => Volatile.Write(ref _end, end);

    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        int n = Interlocked.Increment(ref _count) - 1;
        try
        {
            if (Override?.Invoke(n, fromPosition, batch) == true)
            {
                return ValueTask.CompletedTask;
            }

            long position = fromPosition, limit = ReadLimit ?? EndPosition;
            foreach ((string name, long end) in records)
            {
                if (end > position && end <= limit && batch.TryAdd(Encoding.UTF8.GetBytes(name)))
                {
                    position = end;
                }
            }

            batch.NextPosition = position;
            return ValueTask.CompletedTask;
        }
        finally
        {
            _reads.Release();
        }
    }

    /// <summary>Completes after the next read (or at once for one made since the last call).</summary>
    public async Task NextReadAsync() => Assert.True(await _reads.WaitAsync(TimeSpan.FromMinutes(2)), "timed out waiting for a read");
}
