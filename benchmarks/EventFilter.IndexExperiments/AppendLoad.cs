using EventLog;
using EventLog.Streams;

namespace EventFilter.IndexExperiments;

/// <summary>
/// Appends one small event to each of a range of streams, <see cref="Concurrency"/> at a time, so the group-commit writer
/// batches them. Used to build index files and to drive the write-cost runs.
/// </summary>
internal static class AppendLoad
{
    /// <summary>Appends in flight: enough to fill the writer's batches while it fsyncs.</summary>
    public const int Concurrency = 128;

    private static readonly EventData Event = new("Loaded", "{\"experiment\":\"index\"}"u8.ToArray());

    /// <summary>Appends to <paramref name="streamAt"/>(i) for i in [from, to), with expected version any.</summary>
    public static async Task RunAsync(EventLogEngine engine, long from, long to, Func<long, string> streamAt)
    {
        long next = from - 1;
        Task[] workers = [.. Enumerable.Range(0, Concurrency).Select(_ => Task.Run(async () =>
        {
            for (long i = Interlocked.Increment(ref next); i < to; i = Interlocked.Increment(ref next))
            {
                await engine.AppendAsync(streamAt(i), ExpectedVersion.Any, Event).ConfigureAwait(false);
            }
        }))];
        await Task.WhenAll(workers).ConfigureAwait(false);
    }

    /// <summary>Waits until the engine has flushed <paramref name="flushes"/> memtables in all; throws if its index work failed.</summary>
    public static async Task WaitForFlushesAsync(EventLogEngine engine, long flushes)
    {
        while (engine.Statistics.IndexFlushes < flushes)
        {
            if (engine.Failure is { } failure)
            {
                throw new InvalidOperationException($"The engine stopped: {failure.Message}", failure);
            }

            await Task.Delay(1).ConfigureAwait(false);
        }
    }
}
