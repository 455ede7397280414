using EventFilter.DaemonBench.Client;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// Filter scale: single adds spread round-robin over 1, 64, 256 and 512 filters (each made with capacity 100,000),
/// to show what the number of filters costs an add. The filters are dropped afterwards.
/// </summary>
internal static class ScaleRows
{
    public static void Run(Bench bench)
    {
        BenchSettings settings = bench.Settings;
        var created = new Dictionary<Side, int>();
        foreach (int filters in settings.ScaleFilters)
        {
            bench.Row($"filter scale {filters}", "ns/op", false, side =>
            {
                for (int i = created.GetValueOrDefault(side); i < filters; i++)
                {
                    side.Connection.Call(side.Dialect.Create(Key(i), 100_000));
                }

                created[side] = Math.Max(created.GetValueOrDefault(side), filters);
                return bench.Repeated(settings.ScaleOps, (repeat, samples) =>
                {
                    byte[][] commands = [.. Enumerable.Range(0, settings.ScaleOps)
                        .Select(i => side.Dialect.AddOne(Key(i % filters), RespCommand.Item($"s{filters}-{repeat}", i)))];
                    return Bench.Nanoseconds(samples.TimeEach(side.Connection, commands)) / settings.ScaleOps;
                });
            });
        }

        foreach ((Side side, int count) in created)
        {
            for (int i = 0; i < count; i++)
            {
                side.Connection.Call(Dialect.Drop(Key(i)));
            }
        }
    }

    private static string Key(int filter) => $"scale{filter:D3}";
}
