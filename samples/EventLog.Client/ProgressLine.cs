using System.Globalization;

namespace EventLog.Client;

/// <summary>A progress line every second (done, percent, rate over the last second, failures, ETA), then a summary.</summary>
internal sealed class ProgressLine(TextWriter output, long total, LoadCounters counters, TimeProvider time)
{
    public async Task RunAsync(CancellationToken stop)
    {
        using var timer = new PeriodicTimer(TimeSpan.FromSeconds(1), time);
        long previous = 0;
        try
        {
            while (await timer.WaitForNextTickAsync(stop).ConfigureAwait(false))
            {
                long done = counters.Done;
                long rate = done - previous;
                previous = done;
                string eta = done >= total ? "00:00:00"
                    : rate > 0 ? TimeSpan.FromSeconds(Math.Ceiling((total - done) / (double)rate)).ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture)
                    : "unknown";
                await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
                    $"{done,12:N0} / {total:N0} streams ({100.0 * done / total:F1}%)  {rate:N0} appends/s  {counters.Conflicts:N0} conflicts  {counters.Failed:N0} failed  ETA {eta}")).ConfigureAwait(false);
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The run is over.
        }
    }

    public async Task WriteSummaryAsync(LoadResult result)
    {
        await output.WriteLineAsync(string.Create(CultureInfo.InvariantCulture,
            $"Done: {result.Created:N0} of {result.Requested:N0} streams created in {result.Elapsed.TotalSeconds:F1} s: {result.AppendsPerSecond:N0} appends/s, mean latency {counters.MeanLatency.TotalMilliseconds:F1} ms; {result.Conflicts:N0} conflicts (stream existed), {result.Failed:N0} failed.")).ConfigureAwait(false);
        if (counters.FirstError is { } error)
        {
            await output.WriteLineAsync($"First failure: {error}").ConfigureAwait(false);
        }
    }
}
