using EventFilter;

namespace FileLogWorker.Tests;

/// <summary>
/// Stopping never strands an append. Regression: .NET starts a BackgroundService's ExecuteAsync on the thread pool, and
/// a stop that lands before that work starts means it never runs; appends already queued were neither written nor
/// refused, and their callers waited for ever (19 of 20 in the report).
/// </summary>
public sealed class AppendWorkerStopTests : IDisposable
{
    private const int Rounds = 200;
    private readonly TempDirectory _dir = new();

    public void Dispose() => _dir.Dispose();

    [Fact]
    public async Task Appends_queued_just_before_a_stop_are_written_or_refused_whenever_the_stop_comes()
    {
        using var log = new FileStreamLog(Path.Combine(_dir.Path, "streams.log"));
        using var filter = new StreamExistenceFilter(new StreamExistenceFilterOptions { DataDirectory = _dir.Path, SizeBytes = 64 * 1024 }, log);
        filter.Open();
        int written = 0, refused = 0;
        for (int round = 0; round < Rounds; round++)
        {
            var worker = new AppendWorker(log, filter);
            await worker.StartAsync(CancellationToken.None);
            Task[] appends = [.. Enumerable.Range(0, 5).Select(i => worker.AppendAsync($"round-{round}-{i}"))];
            await worker.StopAsync(CancellationToken.None);

            foreach (Task append in appends)
            {
                // Bounded only to turn a hang into a failure (Poll.Bound); every append is answered by the stop's end.
                try
                {
                    await append.WaitAsync(Poll.Bound);
                    written++;
                }
                catch (InvalidOperationException stopped)
                {
                    Assert.Equal("The log stopped before this append was written.", stopped.Message);
                    refused++;
                }
            }

            worker.Dispose();
        }

        Assert.Equal(Rounds * 5, written + refused);
    }
}
