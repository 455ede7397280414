using System.Text;
using EventFilter.Log;

namespace EventFilter.Hosting.Tests;

/// <summary>
/// A host log in memory: record i sits at position i. Reads can be held at a gate (to keep the filter catching up)
/// or fail at a chosen position (to make catch-up fail).
/// </summary>
public sealed class InMemoryStreamLog : IStreamNameLog
{
    private readonly List<byte[]> _names = [];

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

    /// <summary>While set and not completed, reads wait on it.</summary>
    public TaskCompletionSource? Gate { get; set; }

    /// <summary>Reading at or past this position throws, like a broken disk under the log.</summary>
    public long FailAt { get; set; } = long.MaxValue;

    public static string Name(int i) => $"stream-{i}";

    /// <summary>Appends records named <see cref="Name"/>(from) onwards; the caller adds them to the filter if it is running.</summary>
    public void AppendRange(int from, int count, IStreamExistenceFilter? filter = null)
    {
        for (int i = from; i < from + count; i++)
        {
            // The filter first: a checkpoint at EndPosition must find every name before it already added.
            filter?.Add(Name(i));
            lock (_names)
            {
                _names.Add(Encoding.UTF8.GetBytes(Name(i)));
            }
        }
    }

    public async ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        if (Gate is { } gate)
        {
            await gate.Task.WaitAsync(cancellationToken);
        }

        if (fromPosition >= FailAt)
        {
            throw new IOException($"simulated log read failure at {fromPosition}");
        }

        lock (_names)
        {
            long position = fromPosition;
            while (position < _names.Count && position < FailAt && batch.Count < 1000 && batch.TryAdd(_names[(int)position]))
            {
                position++;
            }

            batch.NextPosition = position;
        }
    }
}
