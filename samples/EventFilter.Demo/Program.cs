// A walk through the filter's life: create, add, ask, flush, reopen (verifying every line), ask again.
using EventFilter;

string directory = args.Length > 0 ? args[0] : Path.Combine(AppContext.BaseDirectory, "data");
Directory.CreateDirectory(directory);
string path = Path.Combine(directory, "stream-existence.filter");
#pragma warning disable RS0030 // The demo's composition root: its own timings and the filter's flush take this clock.
TimeProvider time = TimeProvider.System;
#pragma warning restore RS0030
var options = new FilterFileOptions { SizeBytes = 1_000_000, TimeProvider = time };
const int streams = 1_000_000;

using (FilterFile filter = FilterFile.Open(path, options))
{
    Console.WriteLine($"{(filter.Created ? "Created" : "Opened")} {path}: {filter.Header.LineCount:N0} lines of 64 bytes, k={filter.Header.K}");
    long started = time.GetTimestamp();
    for (int i = 0; i < streams; i++)
    {
        filter.Add($"customer-{i}");
    }

    Console.WriteLine($"Added {streams:N0} stream names in {(long)time.GetElapsedTime(started).TotalMilliseconds} ms");
    Report(filter);
    FlushResult flushed = filter.Flush();
    Console.WriteLine($"Flushed {flushed.BytesFlushed / 1024.0 / 1024.0:F1} MiB in {flushed.Duration.TotalMilliseconds:F0} ms");
}

using (FilterFile reopened = FilterFile.Open(path, options))
{
    Console.WriteLine($"Reopened: verified {reopened.Verification.LinesChecked:N0} lines, {reopened.Verification.CorruptedLines} corrupted");
    Report(reopened);
}

static void Report(FilterFile filter)
{
    int missing = 0, falsePositives = 0;
    for (int i = 0; i < streams; i++)
    {
        missing += filter.MightExist($"customer-{i}") ? 0 : 1;
        falsePositives += filter.MightExist($"supplier-{i}") ? 1 : 0;
    }

    var stats = filter.ComputeStatistics();
    Console.WriteLine($"  written streams reported missing: {missing} (must be 0)");
    Console.WriteLine($"  never-written streams answered 'maybe': {falsePositives:N0} of {streams:N0} ({100.0 * falsePositives / streams:F2}%; estimate {100 * stats.EstimatedFalsePositiveRate:F2}%)");
    Console.WriteLine($"  fill ratio {stats.FillRatio:P1}, estimated streams {stats.EstimatedNames:N0}");
}
