using System.Diagnostics;
using EventLog;

namespace EventFilter.IndexExperiments;

/// <summary>One flush: how long it took and what it wrote.</summary>
internal readonly record struct FlushCost(double Milliseconds, long IndexBytes, long FilterBytes);

/// <summary>
/// Times one index flush with the writer idle: exactly one memtable's worth of appends to new streams (the last commit
/// seals the memtable and hands it to the background flush), then the time until the engine counts the flush done.
/// The flush sorts the entries, writes and fsyncs the index file, and with per-file filters builds and flushes the
/// file's Bloom filter. Polled every millisecond or so, which is small beside a flush of a million entries.
/// </summary>
internal static class FlushTime
{
    public static async Task<FlushCost> MeasureAsync(WriteConfig config, string directory, int memTableEntries)
    {
        await using EventLogEngine engine = await EventLogEngine.OpenAsync(config.Options(directory, memTableEntries)).ConfigureAwait(false);
        engine.Start();
        if (engine.Filter is { } filter)
        {
            await filter.WhenReady.ConfigureAwait(false);
        }

        // No index file exists yet, so even without any filter these lookups touch only the memtable.
        await AppendLoad.RunAsync(engine, 0, memTableEntries, IndexFixture.Present).ConfigureAwait(false);
        long sealedAt = Stopwatch.GetTimestamp();
        await AppendLoad.WaitForFlushesAsync(engine, 1).ConfigureAwait(false);
        double milliseconds = Stopwatch.GetElapsedTime(sealedAt).TotalMilliseconds;

        string index = Path.Combine(directory, "index");
        long indexBytes = Directory.EnumerateFiles(index, "*.idx").Sum(f => new FileInfo(f).Length);
        long filterBytes = Directory.EnumerateFiles(index, "*.bloom").Sum(f => new FileInfo(f).Length);
        await engine.StopAsync().ConfigureAwait(false);
        return new FlushCost(milliseconds, indexBytes, filterBytes);
    }
}
