using BenchmarkDotNet.Columns;
using BenchmarkDotNet.Configs;
using BenchmarkDotNet.Diagnosers;

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
}
