using EventFilter.PostgreSqlBench;

// The driver starts this same program as its processes (--child); see docs/benchmarks-postgresql.md.
var arguments = new Arguments(args);
if (arguments.Has("--child"))
{
    return await BenchProcess.RunAsync(arguments);
}

if (arguments.Get("--connection") is null)
{
    Console.Error.WriteLine("""
        usage: --connection "Host=...;Username=...;Database=..." [--experiment appends|staleness|all]
               appends:   [--processes 1,2,4] [--writers 4] [--streams 8000] [--rounds 3] [--size 16MB]
               staleness: [--appends 400] [--pace-ms 10]
        The database's events table is dropped and created again for each run.
        """);
    return 2;
}

string experiment = arguments.Get("--experiment") ?? "all";
if (experiment is "appends" or "all")
{
    await AppendsExperiment.RunAsync(arguments);
}

if (experiment is "staleness" or "all")
{
    await StalenessExperiment.RunAsync(arguments);
}

return 0;
