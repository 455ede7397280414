using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;
using BenchmarkDotNet.Jobs;

namespace EventFilter.Benchmarks;

/// <summary>
/// The defaults plus the memory diagnoser, whose Allocated column must read "-" for every hot-path benchmark,
/// and the median and minimum: on a shared machine the minimum is the closest to the uncontended cost.
/// The job comes from the command line (docs/benchmarks-micro.md uses <c>--job short</c>).
/// </summary>
public static class BenchmarkConfig
{
    public static IConfig Create() => ManualConfig.Create(DefaultConfig.Instance)
        .AddDiagnoser(MemoryDiagnoser.Default)
        .AddColumn(StatisticColumn.Median, StatisticColumn.Min);

    /// <summary>
    /// <see cref="Create()"/> with a job per probe pass (<see cref="InstructionSets"/>), each a process with its runtime
    /// switches, the native one the baseline: BenchmarkDotNet's Job column then names the pass. The short job's
    /// settings when <paramref name="shortRun"/> (the command line's <c>--job short</c>, which these jobs replace).
    /// </summary>
    public static IConfig Create(IReadOnlyList<(string Name, (string Name, string Value)[] Environment)> passes, bool shortRun)
    {
        IConfig config = Create();
        foreach ((string name, (string Name, string Value)[] environment) in passes)
        {
            Job job = (shortRun ? Job.ShortRun : Job.Default).WithId(name)
                .WithEnvironmentVariables(environment.Select(e => new EnvironmentVariable(e.Name, e.Value)).ToArray());
            config = config.AddJob(name == "native" ? job.AsBaseline() : job);
        }

        return config;
    }
}
