using EventLog.Segments;

using EventFilter;

namespace EventLog;

/// <summary>The engine as the filter's log: (position, stream name) records below the durable end.</summary>
public sealed partial class EventLogEngine
{
    /// <inheritdoc/>
    public ValueTask ReadAsync(long fromPosition, StreamNameBatch batch, CancellationToken cancellationToken)
    {
        ArgumentNullException.ThrowIfNull(batch);
        cancellationToken.ThrowIfCancellationRequested();
        var scanner = new LogScanner(_segments, fromPosition, _segments.DurableEnd, bufferBytes: 64 * 1024);
        long next = fromPosition;
        while (scanner.NextDurable() && batch.TryAdd(scanner.StreamName))
        {
            next = scanner.Position;
        }

        batch.NextPosition = next;
        return ValueTask.CompletedTask;
    }
}
