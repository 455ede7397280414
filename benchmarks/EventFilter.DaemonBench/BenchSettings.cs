using System.Globalization;

namespace EventFilter.DaemonBench;

/// <summary>
/// The command line and the counts of each row. The full counts follow the source's run (20,000 single operations,
/// 32,768 items per batch row, 40,000 mixed, 250 control cycles, 4 clients); --quick shrinks them for a smoke.
/// </summary>
internal sealed record BenchSettings
{
    public const string Usage =
        "usage: DaemonBench [--json FILE] [--quick] [--mode both|pinned|unpinned] [--daemon auto|aot|jit|PATH] [--no-redis] [--redisbloom PATH/redisbloom.so] [--data DIR] [--only TEXT] | DaemonBench --table FILE";

    /// <summary>What --help prints: the usage line and one line per option (docs/benchmarks-daemon.md has the rest).</summary>
    public const string HelpText = Usage + """

          --json FILE                     write the run as JSON
          --table FILE                    print the tables of a saved run (its JSON) and run nothing
          --quick                         tiny counts and one repeat, no goal judged: a smoke of seconds
          --mode both|pinned|unpinned     which CPU modes (default both)
          --daemon auto|aot|jit|PATH      our server: auto takes the NativeAOT build when published, else the JIT build
          --no-redis                      leave Redis's sets out
          --redisbloom PATH               RedisBloom's module (redisbloom.so): adds the RedisBloom column; without it the column is left out
          --only TEXT                     only the rows whose name contains TEXT
          --data DIR                      where the servers' data go: a new directory in DIR, deleted at the end (default $TMPDIR)
        """;

    public bool Quick { get; init; }

    public string? JsonPath { get; init; }

    /// <summary>A saved JSON report whose tables to print, instead of running anything.</summary>
    public string? TablePath { get; init; }

    public string Modes { get; init; } = "both";

    public string Daemon { get; init; } = "auto";

    public bool SkipRedis { get; init; }

    /// <summary>RedisBloom's module, for the RedisBloom column; null leaves the column out.</summary>
    public string? RedisBloomModule { get; init; }

    /// <summary>--help: print <see cref="HelpText"/> and run nothing.</summary>
    public bool ShowHelp { get; init; }

    public string? DataRoot { get; init; }

    /// <summary>Only the rows whose name contains this text (for a focused before/after measurement); null for all.</summary>
    public string? Only { get; init; }

    public int Repeats => Quick ? 1 : 3;

    public int SingleOps => Quick ? 300 : 20_000;

    public int BatchItems => Quick ? 1_024 : 32_768;

    public int MixedOps => Quick ? 500 : 40_000;

    public int ControlCycles => Quick ? 10 : 250;

    public int Reconnects => Quick ? 20 : 2_000;

    public int Clients => 4;

    public int OpsPerClient => Quick ? 100 : 5_000;

    public int ChurnCyclesPerClient => Quick ? 5 : 100;

    public int ScaleOps => Quick ? 200 : 10_000;

    public int[] ScaleFilters => Quick ? [1, 8] : [1, 64, 256, 512];

    public int StartupTrials => Quick ? 1 : 5;

    public int RssItems => Quick ? 20_000 : 1_000_000;

    public IEnumerable<bool> PinnedModes => Modes switch
    {
        "pinned" => [true],
        "unpinned" => [false],
        _ => [false, true],
    };

    /// <exception cref="ArgumentException">An unknown option or a missing value, named in the message.</exception>
    public static BenchSettings Parse(IReadOnlyList<string> args)
    {
        var settings = new BenchSettings();
        for (int i = 0; i < args.Count; i++)
        {
            string Value() => i + 1 < args.Count ? args[++i] : throw new ArgumentException($"{args[i]} needs a value. {Usage}");
            settings = args[i] switch
            {
                "--help" or "-h" => settings with { ShowHelp = true },
                "--quick" => settings with { Quick = true },
                "--no-redis" => settings with { SkipRedis = true },
                "--json" => settings with { JsonPath = Value() },
                "--table" => settings with { TablePath = Value() },
                "--data" => settings with { DataRoot = Value() },
                "--only" => settings with { Only = Value() },
                "--daemon" => settings with { Daemon = Value() },
                "--redisbloom" => settings with { RedisBloomModule = Value() },
                "--mode" => settings with { Modes = Mode(Value()) },
                _ => throw new ArgumentException(string.Create(CultureInfo.InvariantCulture, $"unknown option '{args[i]}'. {Usage}")),
            };
        }

        return settings;
    }

    private static string Mode(string value) =>
        value is "both" or "pinned" or "unpinned" ? value : throw new ArgumentException($"--mode must be both, pinned or unpinned. {Usage}");
}
