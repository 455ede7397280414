using System.Diagnostics;
using EventFilter.DaemonBench.Client;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// Filter lifecycle and connection rows: the control cycle (create, info, drop: three round trips), the same with the
/// filter made by its first add (BF.ADD, info, drop: what a client that never reserves does), and reconnect (connect,
/// PING, close).
/// </summary>
internal static class ControlRows
{
    public static void Run(Bench bench)
    {
        BenchSettings settings = bench.Settings;
        CycleRow(bench, "control cycle", dialect => Cycle(dialect, "control"));
        CycleRow(bench, "control cycle by add", dialect => CycleByAdd(dialect, "control"));

        // The figure is the median, as the source reports it: a new connection's cost has a long tail (thread start-up).
        bench.Row("reconnect (median)", "ns", false, side => bench.Repeated(settings.Reconnects, (_, samples) =>
        {
            var run = new Samples(settings.Reconnects);
            GC.Collect();
            for (int i = 0; i < settings.Reconnects; i++)
            {
                long started = Stopwatch.GetTimestamp();
                using (RespConnection connection = side.Server.Connect())
                {
                    connection.Call(Dialect.Ping);
                }

                long elapsed = Stopwatch.GetTimestamp() - started;
                run.Add(elapsed);
                samples.Add(elapsed);
            }

            return run.Distribution().P50;
        }));
    }

    /// <summary>Create, info and drop of one key, in the server's dialect.</summary>
    public static byte[][] Cycle(Dialect dialect, string key) => [dialect.Create(key, 1_000), dialect.Info(key), Dialect.Drop(key)];

    /// <summary>The filter made by its first add (a set is made the same way), then info and drop.</summary>
    public static byte[][] CycleByAdd(Dialect dialect, string key) => [dialect.AddOne(key, "first"), dialect.Info(key), Dialect.Drop(key)];

    private static void CycleRow(Bench bench, string name, Func<Dialect, byte[][]> commands)
    {
        BenchSettings settings = bench.Settings;
        bench.Row(name, "ns/cycle", false, side => bench.Repeated(settings.ControlCycles, (_, samples) =>
        {
            byte[][] cycle = commands(side.Dialect);
            GC.Collect();
            long begin = Stopwatch.GetTimestamp();
            for (int i = 0; i < settings.ControlCycles; i++)
            {
                samples.TimeOperation(side.Connection, cycle);
            }

            return Bench.Nanoseconds(Stopwatch.GetElapsedTime(begin)) / settings.ControlCycles;
        }));
    }
}
