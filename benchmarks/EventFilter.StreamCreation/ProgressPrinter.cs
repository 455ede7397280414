using System.Globalization;
using EventLog;

namespace EventFilter.StreamCreation;

/// <summary>
/// A progress line every interval while a config runs: streams done, the rate since the last line, elapsed, ETA, and
/// the engine counters that explain the rate (index files now, index-file reads, "definitely new" answers).
/// </summary>
internal sealed class ProgressPrinter(string config, long total, WindowRecorder recorder, Func<EngineStatistics> statistics, TimeSpan interval)
{
    public async Task RunAsync(CancellationToken stop)
    {
        using var timer = new PeriodicTimer(interval);
        long previousDone = 0;
        TimeSpan previousElapsed = TimeSpan.Zero;
        try
        {
            while (await timer.WaitForNextTickAsync(stop).ConfigureAwait(false))
            {
                long done = recorder.Completed;
                TimeSpan elapsed = recorder.Elapsed;
                double rate = (done - previousDone) / (elapsed - previousElapsed).TotalSeconds;
                double average = done / elapsed.TotalSeconds;
                (previousDone, previousElapsed) = (done, elapsed);
                string eta = average > 0 ? Clock(TimeSpan.FromSeconds((total - done) / average)) : "unknown";
                EngineStatistics s = statistics();
                Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
                    $"[{config}] {done,11:N0} / {total:N0} streams ({100.0 * done / total,5:F1}%)  {rate,8:N0}/s  elapsed {Clock(elapsed)}  ETA {eta}  " +
                    $"files {s.IndexFiles}  file reads {s.IndexFileReads:N0}  filter 'new' {s.StreamFilterNegatives:N0}"));
            }
        }
        catch (OperationCanceledException) when (stop.IsCancellationRequested)
        {
            // The config finished.
        }
    }

    private static string Clock(TimeSpan time) => time.ToString(@"hh\:mm\:ss", CultureInfo.InvariantCulture);
}
