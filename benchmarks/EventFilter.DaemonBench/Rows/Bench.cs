using System.Globalization;
using EventFilter.DaemonBench.Report;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// One mode's run: the two servers, the settings, and the rows measured so far. Each row is measured on eventfilterd
/// and then on Redis, back to back, so that a change in the machine's load hits both alike. Process rows start servers
/// of their own; the others share one long-lived server per side (<see cref="StartSides"/>).
/// </summary>
internal sealed class Bench(BenchSettings settings, bool pinned, ServerSpec ours, ServerSpec? redis, string dataRoot) : IDisposable
{
    private Side? _ours;
    private Side? _redis;

    public BenchSettings Settings => settings;

    public bool Pinned => pinned;

    public Side Ours => _ours ?? throw new InvalidOperationException("the servers are not started");

    public Side? Redis => _redis;

    public List<RowResult> Rows { get; } = [];

    public static double Nanoseconds(TimeSpan elapsed) => elapsed.Ticks * 100.0;

    /// <summary>Starts the long-lived server of each side, each on a fresh data directory.</summary>
    public void StartSides()
    {
        _ours = Side.Start(ours, Scratch(ours), pinned);
        _redis = redis is null ? null : Side.Start(redis, Scratch(redis), pinned);
    }

    /// <summary>A new, empty data directory for <paramref name="spec"/>'s server.</summary>
    public string Scratch(ServerSpec spec)
    {
        string directory = Path.Combine(dataRoot, $"{spec.Name}-{(pinned ? "pinned" : "unpinned")}-{Guid.NewGuid():N}");
        Directory.CreateDirectory(directory);
        return directory;
    }

    /// <summary>Measures one row on both long-lived servers and records it.</summary>
    public void Row(string name, string unit, bool higherIsBetter, Func<Side, Measurement> measure)
    {
        if (!Wanted(name))
        {
            return;
        }

        Measurement ourFigure = measure(Ours);
        Measurement? redisFigure = _redis is null ? null : measure(_redis);
        Add(name, unit, higherIsBetter, ourFigure, redisFigure);
    }

    /// <summary>Measures one row that starts servers of its own, from each side's spec.</summary>
    public void ProcessRow(string name, string unit, Func<ServerSpec, Measurement> measure)
    {
        if (!Wanted(name))
        {
            return;
        }

        Measurement ourFigure = measure(ours);
        Measurement? redisFigure = redis is null ? null : measure(redis);
        Add(name, unit, higherIsBetter: false, ourFigure, redisFigure);
    }

    public bool Wanted(string name) => settings.Only is not { } only || name.Contains(only, StringComparison.OrdinalIgnoreCase);

    public void Add(string name, string unit, bool higherIsBetter, Measurement ourFigure, Measurement? redisFigure)
    {
        (double? limit, string goal) = Goals.For(name, pinned);
        var row = new RowResult(name, unit, higherIsBetter, ourFigure, redisFigure, limit, goal, Judged: !settings.Quick);
        Rows.Add(row);
        Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
            $"  {name,-28} ours {ourFigure.Value,14:N1}  redis {redisFigure?.Value,14:N1}  {unit,-9} {(row.Met is { } met ? met ? "met" : "MISSED" : "")}"));
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
        _ours?.Dispose();
        _redis?.Dispose();
    }
}
