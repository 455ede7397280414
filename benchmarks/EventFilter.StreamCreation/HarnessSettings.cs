using System.Globalization;

namespace EventFilter.StreamCreation;

/// <summary>
/// The command line: <c>--streams N --config NAME --csv FILE [--keep] [--quick] [--concurrency C] [--memtable M]
/// [--window W] [--data DIR] [--plot FILE.csv]</c>. <c>--quick</c> is the CI smoke run: every config, a few thousand streams, a tiny
/// memtable, so each index flush and merge happens within seconds.
/// </summary>
internal sealed record HarnessSettings
{
    public long Streams { get; init; } = 10_000_000;

    public string Config { get; init; } = "all";

    public string? CsvPath { get; init; }

    public bool Keep { get; init; }

    public bool Quick { get; init; }

    /// <summary>Appends in flight at once: enough to keep the group-commit writer's batches full while it fsyncs.</summary>
    public int Concurrency { get; init; } = 128;

    /// <summary>Index entries per memtable: 1,000,000 as in EventStoreDB's run.</summary>
    public int MemTableEntries { get; init; } = 1_000_000;

    /// <summary>Streams per CSV row (rate window).</summary>
    public long Window { get; init; } = 100_000;

    /// <summary>With <c>--plot FILE.csv</c>: only redraw the chart of that earlier run, beside it.</summary>
    public string? PlotCsv { get; init; }

    /// <summary>Where the per-config data directories go; a fresh temp directory when not given.</summary>
    public string? DataRoot { get; init; }

    public const string Usage =
        "usage: EventFilter.StreamCreation [--streams N] [--config none|per-file|filter-15MB|filter-1MB|all] [--csv FILE]\n" +
        "                                  [--keep] [--quick] [--concurrency C] [--memtable M] [--window W] [--data DIR]\n" +
        "       EventFilter.StreamCreation --plot FILE.csv [--streams N --memtable M --concurrency C]   (redraw a run's chart)";

    /// <summary>Parses the arguments; throws <see cref="ArgumentException"/> naming the bad one.</summary>
    public static HarnessSettings Parse(string[] args)
    {
        var settings = new HarnessSettings();
        bool quick = args.Contains("--quick");
        if (quick)
        {
            // Seconds on 2 cores: 12 memtables' worth per config, so `none` meets a dozen flushes and two merges.
            settings = settings with { Quick = true, Streams = 24_000, MemTableEntries = 2_000, Window = 1_000, Concurrency = 64 };
        }

        for (int i = 0; i < args.Length; i++)
        {
            string Value() => i + 1 < args.Length ? args[++i] : throw new ArgumentException($"{args[i]} needs a value.\n{Usage}");
            settings = args[i] switch
            {
                "--quick" => settings,
                "--keep" => settings with { Keep = true },
                "--streams" => settings with { Streams = Positive(Value(), "--streams", int.MaxValue) },
                "--config" => settings with { Config = CreationConfig.CheckName(Value()) },
                "--csv" => settings with { CsvPath = Value() },
                "--concurrency" => settings with { Concurrency = (int)Positive(Value(), "--concurrency", 100_000) },
                "--memtable" => settings with { MemTableEntries = (int)Positive(Value(), "--memtable", int.MaxValue) },
                "--window" => settings with { Window = Positive(Value(), "--window", int.MaxValue) },
                "--data" => settings with { DataRoot = Value() },
                "--plot" => settings with { PlotCsv = Value() },
                _ => throw new ArgumentException($"Unknown argument '{args[i]}'.\n{Usage}"),
            };
        }

        return settings;
    }

    private static long Positive(string text, string name, long max) =>
        long.TryParse(text.Replace("_", "", StringComparison.Ordinal), NumberStyles.None, CultureInfo.InvariantCulture, out long value) && value > 0 && value <= max
            ? value
            : throw new ArgumentException($"{name} must be a whole number from 1 to {max:N0}; got '{text}'.");
}
