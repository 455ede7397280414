using System.Globalization;
using EventLog;

namespace EventFilter.IndexExperiments;

/// <summary>
/// An engine data directory holding exactly <see cref="Files"/> index files of <see cref="EntriesPerFile"/> entries each
/// (one event per stream, so entries = streams), written without per-file filters and never merged. Each experiment
/// reopens it with the switches it measures: the engine builds per-file filters on open, at the rate asked for, when a
/// file was written without one, so one set of files serves every rate.
/// </summary>
internal sealed class IndexFixture
{
    private IndexFixture(string directory, int files, int entriesPerFile)
    {
        Directory = directory;
        Files = files;
        EntriesPerFile = entriesPerFile;
    }

    public string Directory { get; }

    public int Files { get; }

    public int EntriesPerFile { get; }

    /// <summary>Streams written, all of them present in some index file.</summary>
    public long Streams => (long)Files * EntriesPerFile;

    /// <summary>The name of written stream <paramref name="i"/> (0 to <see cref="Streams"/> - 1).</summary>
    public static string Present(long i) => string.Create(CultureInfo.InvariantCulture, $"stream-{i}");

    /// <summary>A name that was never written.</summary>
    public static string Absent(long i) => string.Create(CultureInfo.InvariantCulture, $"absent-{i}");

    /// <summary>
    /// Writes the files. Each round appends exactly one memtable's worth and waits for it, so every memtable is sealed at
    /// exactly <paramref name="entriesPerFile"/> entries. The stream-existence filter is on while loading only so that
    /// loading stays fast; it is not part of the fixture.
    /// </summary>
    public static async Task<IndexFixture> BuildAsync(string directory, int files, int entriesPerFile)
    {
        var fixture = new IndexFixture(directory, files, entriesPerFile);
        await using (EventLogEngine engine = await EventLogEngine.OpenAsync(fixture.Options(perFileFilters: false) with
        {
            MemTableEntries = entriesPerFile,
            StreamExistenceFilterSizeBytes = 16_000_000,
        }).ConfigureAwait(false))
        {
            engine.Start();
            await engine.Filter!.WhenReady.ConfigureAwait(false);
            for (int file = 0; file < files; file++)
            {
                await AppendLoad.RunAsync(engine, (long)file * entriesPerFile, (long)(file + 1) * entriesPerFile, Present).ConfigureAwait(false);
            }

            await AppendLoad.WaitForFlushesAsync(engine, files).ConfigureAwait(false);
            await engine.StopAsync().ConfigureAwait(false);
        }

        System.IO.Directory.Delete(Path.Combine(directory, "filter"), recursive: true);
        return fixture;
    }

    /// <summary>
    /// Opens the fixture for lookups: no stream-info cache (every lookup reaches the filter or the index), per-file
    /// filters as asked (built fresh, at <paramref name="rate"/>), and, with <paramref name="filterSizeBytes"/> &gt; 0, a
    /// stream-existence filter of that size caught up from the log before this returns.
    /// </summary>
    public async Task<EventLogEngine> OpenAsync(bool perFileFilters, double rate = 0.01, long filterSizeBytes = 0)
    {
        DeleteDerivedFilters();
        EventLogEngine engine = await EventLogEngine.OpenAsync(Options(perFileFilters) with
        {
            PerFileFilterFalsePositiveRate = rate,
            StreamExistenceFilterSizeBytes = filterSizeBytes,
        }).ConfigureAwait(false);
        if (engine.IndexRecovery.Files != Files)
        {
            await engine.DisposeAsync().ConfigureAwait(false);
            throw new InvalidOperationException($"The fixture in {Directory} opened with {engine.IndexRecovery.Files} index files, not {Files}.");
        }

        if (filterSizeBytes > 0)
        {
            engine.Start(); // the engine's own filter is opened by Start; nothing is appended
            await engine.Filter!.WhenReady.ConfigureAwait(false);
        }

        return engine;
    }

    private EventLogOptions Options(bool perFileFilters) => new()
    {
        DataDirectory = Directory,
        MemTableEntries = EntriesPerFile,
        IndexMergeThreshold = 0,
        PerFileFilters = perFileFilters,
        StreamExistenceFilterSizeBytes = 0,
        StreamInfoCacheCapacity = 0,
        FilterCheckpointInterval = TimeSpan.Zero,
    };

    // Per-file filters of another rate and a stream-existence filter of another size would be resized or rebuilt in
    // place; deleting them makes every configuration start from the same state.
    private void DeleteDerivedFilters()
    {
        foreach (string bloom in System.IO.Directory.EnumerateFiles(Path.Combine(Directory, "index"), "*.bloom"))
        {
            File.Delete(bloom);
        }

        string filter = Path.Combine(Directory, "filter");
        if (System.IO.Directory.Exists(filter))
        {
            System.IO.Directory.Delete(filter, recursive: true);
        }
    }
}
