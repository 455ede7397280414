using EventFilter.DaemonBench;
using EventFilter.DaemonBench.Client;
using EventFilter.DaemonBench.Report;
using EventFilter.DaemonBench.Rows;
using EventFilter.DaemonBench.Servers;

// The bloomd benchmark table re-run: eventfilterd against Debian's redis-server (sets) and, with --redisbloom, RedisBloom,
// over Unix sockets, every row unpinned and then pinned (client and servers on CPU 0). See docs/benchmarks-daemon.md.
BenchSettings settings;
try
{
    settings = BenchSettings.Parse(args);
}
catch (ArgumentException error)
{
    Console.Error.WriteLine(error.Message);
    return 2;
}

if (settings.ShowHelp)
{
    Console.WriteLine(BenchSettings.HelpText);
    return 0;
}

if (settings.TablePath is { } saved)
{
    try
    {
        Console.Write(MarkdownTable.Format(SavedRun.Read(saved)));
        return 0;
    }
    catch (InvalidOperationException error)
    {
        Console.Error.WriteLine(error.Message);
        return 2;
    }
}

string root = ServerLocator.RepositoryRoot();
ServerSpec ours;
try
{
    ours = ServerLocator.Ours(settings.Daemon, root);
}
catch (InvalidOperationException error)
{
    Console.Error.WriteLine(error.Message);
    return 2;
}

(ServerSpec? redis, string? redisSkipped) = ServerLocator.Redis(settings, root);
(ServerSpec? redisBloom, string? redisBloomSkipped) = ServerLocator.RedisBloom(settings, root);
string? redisBenchmark = ServerLocator.RedisBenchmark(settings, root);
// A directory of its own under --data (or the temporary directory), the only thing the run deletes at its end: the
// directory given may hold the caller's files.
string dataRoot = Path.Combine(settings.DataRoot ?? Path.GetTempPath(), $"eventfilter-daemonbench-{Environment.ProcessId}");
Console.WriteLine($"eventfilterd: {ours.Description}");
Console.WriteLine($"Redis: {redis?.Description ?? "skipped: " + redisSkipped}");
Console.WriteLine($"RedisBloom: {redisBloom?.Description ?? "left out: " + redisBloomSkipped}");
Console.WriteLine(redisBenchmark is null ? "many-clients rows: left out, redis-benchmark is not installed (benchmarks/daemon/install-tools.sh redis)" : $"many-clients rows: {redisBenchmark}");
Console.WriteLine($"{Environment.ProcessorCount} CPUs; data under {dataRoot}; {(settings.Quick ? "quick smoke" : "full run")}");

var modes = new List<ModeResult>();
try
{
    foreach (bool pinned in settings.PinnedModes)
    {
        string mode = pinned ? "pinned" : "unpinned";
        string before = RunResult.LoadAverage();
        Console.WriteLine($"\n{mode}: load average {before}");

        // The measuring thread is the main thread; the concurrent rows place their own threads the same way.
        CpuPlacement.ApplyToCurrentThread(pinned);
        using var bench = new Bench(settings, pinned, new Contenders<ServerSpec>(ours, redis, redisBloom), dataRoot);
        ProcessRows.Run(bench);
        bench.StartSides();
        ControlRows.Run(bench);
        OperationRows.Run(bench);
        ConcurrentRows.Run(bench);
        ManyClientRows.Run(bench, redisBenchmark);
        ScaleRows.Run(bench);
        MemoryRows.Run(bench);
        modes.Add(new ModeResult(mode, before, RunResult.LoadAverage(), bench.Rows));
    }
}
finally
{
    if (Directory.Exists(dataRoot))
    {
        Directory.Delete(dataRoot, recursive: true);
    }
}

var run = new RunResult(settings.Quick, ours.Description, redis?.Description, redisSkipped, redisBloom?.Description, redisBloomSkipped, modes);
Console.WriteLine();
Console.Write(MarkdownTable.Format(run));

if (settings.JsonPath is { } json)
{
    JsonReport.Write(json, run);
    Console.WriteLine($"\nWrote {json}");
}

return 0;
