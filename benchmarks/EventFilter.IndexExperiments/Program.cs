using System.Globalization;
using EventFilter.IndexExperiments;

// `lookup` (the SSTable tables of the SSTable Bloom filter benchmarks write-up), `write` (the write cost of the LevelDB filter-block experiment) or `all` (the default), each
// printing markdown tables. Options: --entries N (entries per index file, default 10,000), --lookups N (timed lookups
// per row, default 100,000), --rounds N (write-cost rounds, default 3), --data DIR. See docs/benchmarks-engine.md.
string experiment = args.Length > 0 && !args[0].StartsWith("--", StringComparison.Ordinal) ? args[0] : "all";
if (experiment is not ("lookup" or "write" or "all"))
{
    Console.Error.WriteLine("usage: EventFilter.IndexExperiments [lookup|write|all] [--entries N] [--lookups N] [--rounds N] [--data DIR]");
    return 2;
}

int entries = Option("--entries", 10_000);
int lookups = Option("--lookups", 100_000);
int rounds = Option("--rounds", 3);
string? dataOption = args.SkipWhile(a => a != "--data").Skip(1).FirstOrDefault();
string root = dataOption ?? Path.Combine(Path.GetTempPath(), $"eventfilter-indexexperiments-{Environment.ProcessId}");

Console.WriteLine($"{Environment.ProcessorCount} cores, .NET {Environment.Version}, {Environment.OSVersion}; load average {LoadAverage()}; data in {root}");
try
{
    if (experiment is "lookup" or "all")
    {
        await new LookupExperiments(Path.Combine(root, "lookup"), entries, lookups).RunAsync();
    }

    if (experiment is "write" or "all")
    {
        await new WriteCostExperiments(Path.Combine(root, "write"), rounds).RunAsync();
    }
}
finally
{
    if (dataOption is null && Directory.Exists(root))
    {
        Directory.Delete(root, recursive: true);
    }
}

Console.WriteLine($"Load average at the end: {LoadAverage()}");
return 0;

int Option(string name, int fallback)
{
    string? text = args.SkipWhile(a => a != name).Skip(1).FirstOrDefault();
    return text is null ? fallback
        : int.TryParse(text, NumberStyles.None, CultureInfo.InvariantCulture, out int value) && value > 0 ? value
        : throw new ArgumentException($"{name} must be a positive whole number; got '{text}'.");
}

// Other work on a shared machine shows up here; the docs quote it beside the numbers.
static string LoadAverage() =>
    File.Exists("/proc/loadavg") ? string.Join(' ', File.ReadAllText("/proc/loadavg").Split(' ').Take(3)) : "n/a";
