using EventFilter.DaemonBench.Client;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// The source's operation rows, one client, one round trip at a time: single add and check, batch-8/32/128 add and
/// check (per item), and mixed 90/10. Lookups ask for present and absent items alternately.
/// </summary>
internal static class OperationRows
{
    public static void Run(Bench bench)
    {
        BenchSettings settings = bench.Settings;
        bench.Row("single add", "ns/op", false, side => bench.Repeated(settings.SingleOps, (repeat, samples) =>
            Each(side, samples, settings.SingleOps, i => side.Dialect.AddOne(Side.Key, RespCommand.Item($"a{repeat}", i))) / settings.SingleOps));

        bench.Row("single check", "ns/op", false, side => bench.Repeated(settings.SingleOps, (repeat, samples) =>
            Each(side, samples, settings.SingleOps, i => side.Dialect.CheckOne(Side.Key, Present($"a{repeat}", i))) / settings.SingleOps));

        foreach (int size in (int[])[8, 32, 128])
        {
            int batches = settings.BatchItems / size;
            bench.Row($"batch-{size} add", "ns/item", false, side => bench.Repeated(batches, (repeat, samples) =>
                Each(side, samples, batches, b => side.Dialect.AddMany(Side.Key, Batch(b, size, i => RespCommand.Item($"b{size}-{repeat}", i)))) / (batches * size)));
            bench.Row($"batch-{size} check", "ns/item", false, side => bench.Repeated(batches, (repeat, samples) =>
                Each(side, samples, batches, b => side.Dialect.CheckMany(Side.Key, Batch(b, size, i => Present($"b{size}-{repeat}", i)))) / (batches * size)));
        }

        // Every tenth operation adds a new item; the others look up, alternately an item added above and an absent one.
        bench.Row("mixed 90/10", "ns/op", false, side => bench.Repeated(settings.MixedOps, (repeat, samples) =>
            Each(side, samples, settings.MixedOps, i => i % 10 == 9
                ? side.Dialect.AddOne(Side.Key, RespCommand.Item($"x{repeat}", i))
                : side.Dialect.CheckOne(Side.Key, Present($"a{repeat}", i % settings.SingleOps))) / settings.MixedOps));
    }

    /// <summary>Even indexes name an item added under <paramref name="prefix"/>; odd ones an item never added.</summary>
    public static string Present(string prefix, int index) => RespCommand.Item(index % 2 == 0 ? prefix : "absent", index);

    private static IEnumerable<string> Batch(int batch, int size, Func<int, string> item) =>
        Enumerable.Range(batch * size, size).Select(item);

    /// <summary>Encodes <paramref name="count"/> commands, then times them one round trip each; returns the loop's nanoseconds.</summary>
    private static double Each(Side side, Samples samples, int count, Func<int, byte[]> command)
    {
        byte[][] commands = [.. Enumerable.Range(0, count).Select(command)];
        return Bench.Nanoseconds(samples.TimeEach(side.Connection, commands));
    }
}
