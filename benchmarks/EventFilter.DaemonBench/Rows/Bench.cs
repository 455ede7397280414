using System.Globalization;
using EventFilter.DaemonBench.Report;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// One mode's run: the servers, the settings, and the rows measured so far. Each row is measured on eventfilterd and
/// then on each peer, back to back (<see cref="Contenders{T}.Select"/>). Process rows start servers of their own; the
/// others share one long-lived server per side (<see cref="StartSides"/>).
/// </summary>
internal sealed class Bench(BenchSettings settings, bool pinned, Contenders<ServerSpec> servers, string dataRoot) : IDisposable
{
    // Every side started, so that a failed start of a later one still stops the earlier ones.
    private readonly List<Side> _started = [];
    private Contenders<Side>? _sides;

    public BenchSettings Settings => settings;

    public bool Pinned => pinned;

    public Contenders<Side> Sides => _sides ?? throw new InvalidOperationException("the servers are not started");

    public List<RowResult> Rows { get; } = [];

    public static double Nanoseconds(TimeSpan elapsed) => elapsed.Ticks * 100.0;

    /// <summary>Starts the long-lived server of each side, each on a fresh data directory.</summary>
    public void StartSides() => _sides = servers.Select(spec =>
    {
        Side side = Side.Start(spec, Scratch(spec), pinned);
        _started.Add(side);
        return side;
    });

    /// <summary>A new, empty data directory for <paramref name="spec"/>'s server.</summary>
    public string Scratch(ServerSpec spec)
    {
        string directory = Path.Combine(dataRoot, $"{spec.Name}-{(pinned ? "pinned" : "unpinned")}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        return directory;
    }

    /// <summary>Measures one row on every long-lived server and records it.</summary>
    public void Row(string name, string unit, bool higherIsBetter, Func<Side, Measurement> measure)
    {
        if (Wanted(name))
        {
            Add(name, unit, higherIsBetter, Sides.Select(measure));
        }
    }

    /// <summary>Measures one row that starts servers of its own, from each side's spec; null where it does not apply.</summary>
    public void ProcessRow(string name, string unit, Func<ServerSpec, Measurement?> measure)
    {
        if (Wanted(name))
        {
            Add(name, unit, higherIsBetter: false, servers.Select(measure));
        }
    }

    public bool Wanted(string name) => settings.Only is not { } only || name.Contains(only, StringComparison.OrdinalIgnoreCase);

    public void Add(string name, string unit, bool higherIsBetter, Contenders<Measurement> figures)
    {
        (double? limit, string goal) = Goals.For(name, pinned);
        var row = new RowResult(name, unit, higherIsBetter, figures.Ours, figures.Redis, figures.RedisBloom, limit, goal, Judged: !settings.Quick);
        Rows.Add(row);
        string redisBloom = servers.RedisBloom is null ? "" : string.Create(CultureInfo.InvariantCulture, $"  redisbloom {figures.RedisBloom?.Value,14:N1}");
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {name,-28} ours {figures.Ours.Value,14:N1}  redis {figures.Redis?.Value,14:N1}{redisBloom}  {unit,-9} {(row.Met is { } met ? met ? "met" : "MISSED" : "")}"));
    }
    /// <summary>
    /// One warm-up run (discarded), then <see cref="BenchSettings.Repeats"/> measured runs; the figure is their median and
    /// the distribution pools their samples. <paramref name="run"/> gets the repeat number, to make its items unique.
    /// </summary>
    public Measurement Repeated(int samplesPerRun, Func<int, Samples, double> run)
    {
        run(0, new Samples(samplesPerRun));
        var samples = new Samples(samplesPerRun * settings.Repeats);
        double[] figures = [.. Enumerable.Range(1, settings.Repeats).Select(repeat => run(repeat, samples))];
        Array.Sort(figures);
        return new Measurement(figures[figures.Length / 2], samples.Distribution());
    }

    public void Dispose()
    {
        foreach (Side side in _started)
        {
            side.Dispose();
        }
    }
}
