using System.Globalization;
using EventLog;
using EventLog.Streams;

namespace EventFilter.StreamCreation;

/// <summary>What one config's run produced: its rate rows and the engine's counters at the end.</summary>
internal sealed record RunResult(CreationConfig Config, IReadOnlyList<RateRow> Rows, EngineStatistics Statistics, TimeSpan Elapsed, long Streams);

/// <summary>
/// One config: a fresh engine in its own data directory, then one event to each of N new streams with expected version
/// no-stream, so every append makes the writer look up the stream's last event number (the lookup the filters
/// shortcut). A fixed number of workers each keep one append in flight, which keeps the group-commit writer's batches
/// full while it fsyncs (the harness is a load generator, not a latency probe).
/// </summary>
internal static class CreationRun
{
    // A small body like the source's test events; one shared buffer, since the engine only reads it.
    private static readonly EventData Event = new("StreamCreated", "{\"experiment\":\"stream-creation\"}"u8.ToArray());

    public static async Task<RunResult> RunAsync(CreationConfig config, HarnessSettings settings, string directory, CancellationToken cancellationToken)
    {
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(config.EngineOptions(directory, settings.MemTableEntries), cancellationToken).ConfigureAwait(false);
        engine.Start();
        if (engine.Filter is { } filter)
        {
            // Until it is ready the filter answers "maybe"; an empty log makes it ready at once, but the clock starts after.
            await filter.WhenReady.WaitAsync(cancellationToken).ConfigureAwait(false);
        }

        var recorder = new WindowRecorder(settings.Streams, settings.Window);
        using var stop = CancellationTokenSource.CreateLinkedTokenSource(cancellationToken);
        var progress = new ProgressPrinter(config.Name, settings.Streams, recorder, () => engine.Statistics, TimeSpan.FromSeconds(settings.Quick ? 1 : 10));
        Task reporting = progress.RunAsync(stop.Token);
        Exception? failure = null;
        try
        {
            long next = -1;
            Task[] workers = [.. Enumerable.Range(0, settings.Concurrency).Select(_ => Task.Run(async () =>
            {
                try
                {
                    for (long i = Interlocked.Increment(ref next); i < settings.Streams; i = Interlocked.Increment(ref next))
                    {
                        string stream = string.Create(CultureInfo.InvariantCulture, $"stream-{i}");
                        await engine.AppendAsync(stream, ExpectedVersion.NoStream, Event, stop.Token).ConfigureAwait(false);
                        recorder.AppendCompleted();
                    }
                }
                catch (Exception error)
                {
                    // The first failure stops the other workers rather than letting them fail one append at a time.
                    Interlocked.CompareExchange(ref failure, error, null);
                    await stop.CancelAsync().ConfigureAwait(false);
                }
            }, CancellationToken.None))];
            await Task.WhenAll(workers).ConfigureAwait(false);
        }
        finally
        {
            await stop.CancelAsync().ConfigureAwait(false);
            await reporting.ConfigureAwait(false);
        }

        if (failure is not null)
        {
            throw new InvalidOperationException($"[{config.Name}] an append failed after {recorder.Completed:N0} streams: {failure.Message}", failure);
        }

        TimeSpan elapsed = recorder.Elapsed;
        await engine.StopAsync().ConfigureAwait(false);
        return new RunResult(config, [.. recorder.Rows(config.Name)], engine.Statistics, elapsed, recorder.Completed);
    }
}
