using System.Globalization;
using EventFilter.StreamCreation;

// The stream-creation experiment (the "Bloom Filters in EventStoreDB" post): N events to N new streams per config, a CSV row per window of
// streams, a summary table, and with --csv an SVG chart beside the CSV. See docs/benchmarks-engine.md.
HarnessSettings settings;
try
{
    settings = HarnessSettings.Parse(args);
}
catch (ArgumentException error)
{
    Console.Error.WriteLine(error.Message);
    return 2;
}

if (settings.PlotCsv is { } plotted)
{
    // Redraws the chart of an earlier run from its CSV (the other settings only label it).
    List<RateRow> earlier = RateCsv.Read(plotted);
    Console.WriteLine($"Wrote {StreamCreationChart.Write(plotted, earlier, settings)}");
    RunSummary.PrintStretches(earlier, settings.MemTableEntries);
    return 0;
}

using var cancel = new CancellationTokenSource();
Console.CancelKeyPress += (_, e) => { e.Cancel = true; cancel.Cancel(); };

string root = settings.DataRoot ?? Path.Combine(Path.GetTempPath(), $"eventfilter-streamcreation-{Environment.ProcessId}");
string? csv = settings.CsvPath ?? (settings.Quick ? Path.Combine(root, "stream-creation.csv") : null);
Console.WriteLine(string.Create(CultureInfo.InvariantCulture,
    $"Stream creation: {settings.Streams:N0} streams per config, memtable {settings.MemTableEntries:N0}, {settings.Concurrency} appends in flight, " +
    $"config {settings.Config}; {Environment.ProcessorCount} cores, .NET {Environment.Version}; data in {root}"));

var results = new List<RunResult>();
foreach (CreationConfig config in CreationConfig.Select(settings.Config))
{
    string directory = Path.Combine(root, config.Name);
    if (Directory.Exists(directory))
    {
        Directory.Delete(directory, recursive: true); // every config starts from an empty log
    }

    Console.WriteLine($"[{config.Name}] starting; load average {LoadAverage()}");
    try
    {
        results.Add(await CreationRun.RunAsync(config, settings, directory, cancel.Token));
    }
    catch (OperationCanceledException) when (cancel.IsCancellationRequested)
    {
        Console.Error.WriteLine("Cancelled.");
        return 130;
    }
    finally
    {
        if (!settings.Keep)
        {
            Directory.Delete(directory, recursive: true);
        }
    }

    Console.WriteLine($"[{config.Name}] done in {results[^1].Elapsed.TotalSeconds:F1} s; load average {LoadAverage()}");
}

if (csv is not null)
{
    List<RateRow> rows = [.. results.SelectMany(r => r.Rows)];
    RateCsv.Write(csv, rows);
    Console.WriteLine($"Wrote {csv} and {StreamCreationChart.Write(csv, rows, settings)}");
}

RunSummary.Print(results, settings);
RunSummary.PrintStretches([.. results.SelectMany(r => r.Rows)], settings.MemTableEntries);
bool valid = RunSummary.Check(results, settings);
if (!settings.Keep && settings.DataRoot is null && Directory.Exists(root))
{
    Directory.Delete(root, recursive: true); // only the emptied config directories, and the --quick CSV and chart
}

return valid ? 0 : 1;

// Other work on a shared machine shows up here; the docs quote it beside the numbers.
static string LoadAverage() =>
    File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "n/a";
