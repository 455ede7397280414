using EventLog;

namespace EventFilter.StreamCreation;

/// <summary>
/// One line of the chart: which filters stand between an append to a new stream and the index walk. The
/// stream-existence configs keep per-file filters off, so each is compared with <c>none</c> exactly as the source's runs
/// were compared with each other; <c>per-file</c> shows what the per-index-file filters alone buy.
/// </summary>
/// <param name="Name">The <c>--config</c> name and the chart's legend.</param>
/// <param name="PerFileFilters">A Bloom filter beside each index file (1% target rate, the engine's default).</param>
/// <param name="FilterSizeBytes">The stream-existence filter's size; 0 for none.</param>
/// <param name="Colour">The line's colour in the chart (#rrggbb).</param>
internal sealed record CreationConfig(string Name, bool PerFileFilters, long FilterSizeBytes, string Colour)
{
    /// <summary>Every config, in the order <c>all</c> runs them and the legend lists them.</summary>
    public static IReadOnlyList<CreationConfig> All { get; } =
    [
        new("none", PerFileFilters: false, FilterSizeBytes: 0, "#d62728"),
        new("per-file", PerFileFilters: true, FilterSizeBytes: 0, "#ff7f0e"),
        new("filter-15MB", PerFileFilters: false, FilterSizeBytes: 15_000_000, "#2ca02c"),
        new("filter-1MB", PerFileFilters: false, FilterSizeBytes: 1_000_000, "#1f77b4"),
    ];

    /// <summary>The configs a <c>--config</c> value names: one, or all four for <c>all</c>.</summary>
    public static IReadOnlyList<CreationConfig> Select(string name) =>
        name == "all" ? All : [All.Single(c => c.Name == name)];

    /// <summary>Returns <paramref name="name"/> if it is a config or <c>all</c>; throws naming the accepted values otherwise.</summary>
    public static string CheckName(string name) =>
        name == "all" || All.Any(c => c.Name == name)
            ? name
            : throw new ArgumentException($"--config must be one of {string.Join(", ", All.Select(c => c.Name))}, all; got '{name}'.");

    /// <summary>The engine's options for this config in <paramref name="directory"/>.</summary>
    public EventLogOptions EngineOptions(string directory, int memTableEntries) => new()
    {
        DataDirectory = directory,
        MemTableEntries = memTableEntries,
        PerFileFilters = PerFileFilters,
        StreamExistenceFilterSizeBytes = FilterSizeBytes,

        // Everything else at the engine's defaults, which follow EventStoreDB's: merges of 4 files per level, a
        // 100,000-stream cache (new streams always miss it), a filter checkpoint every 30 s.
    };
}
