using System.Diagnostics;
using EventFilter.DaemonBench.Client;
using EventFilter.DaemonBench.Report;
using EventFilter.DaemonBench.Servers;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// Several clients at once, each on its own thread and connection (pinned to CPU 0 with the servers in pinned mode):
/// 4-client throughput of mixed 90/10 operations with p50/p95, and control churn (4 clients cycling their own keys).
/// </summary>
internal static class ConcurrentRows
{
    public static void Run(Bench bench)
    {
        BenchSettings settings = bench.Settings;
        string clients = $"{settings.Clients}-client";
        if (bench.Wanted(clients))
        {
            Contenders<Measurement> throughput = bench.Sides.Select(side => bench.Repeated(settings.Clients * settings.OpsPerClient, (repeat, samples) =>
            {
                TimeSpan wall = Clients(bench, side, samples, client => [.. Enumerable.Range(0, settings.OpsPerClient).Select(i => (byte[][])[i % 10 == 9
                    ? side.Dialect.AddOne(Side.Key, RespCommand.Item($"c{client}-{repeat}", i))
                    : side.Dialect.CheckOne(Side.Key, OperationRows.Present($"a{repeat}", i))])]);
                return settings.Clients * settings.OpsPerClient / wall.TotalSeconds;
            }));
            bench.Add($"{clients} throughput", "ops/s", true, throughput);
            bench.Add($"{clients} p50", "ns", false, throughput.Select(m => Percentile(m, d => d.P50)));
            bench.Add($"{clients} p95", "ns", false, throughput.Select(m => Percentile(m, d => d.P95)));
        }

        Churn(bench, "control churn", ControlRows.Cycle);
        Churn(bench, "control churn by add", ControlRows.CycleByAdd);
    }

    private static void Churn(Bench bench, string name, Func<Dialect, string, byte[][]> cycleOf)
    {
        BenchSettings settings = bench.Settings;
        bench.Row(name, "cycles/s", true, side => bench.Repeated(settings.Clients * settings.ChurnCyclesPerClient, (_, samples) =>
        {
            TimeSpan wall = Clients(bench, side, samples, client =>
            {
                byte[][] cycle = cycleOf(side.Dialect, $"churn{client}");
                return [.. Enumerable.Repeat(cycle, settings.ChurnCyclesPerClient)];
            });
            return settings.Clients * settings.ChurnCyclesPerClient / wall.TotalSeconds;
        }));
    }

    private static Measurement Percentile(Measurement measurement, Func<Distribution, double> pick) => new(pick(measurement.Distribution!), measurement.Distribution);

    /// <summary>
    /// Runs every client's operations (each a sequence of round trips) at once, after all have connected and their
    /// commands are encoded; records each operation's time and returns the wall time from the common start to the last finish.
    /// </summary>
    private static TimeSpan Clients(Bench bench, Side side, Samples samples, Func<int, byte[][][]> operations)
    {
        int clients = bench.Settings.Clients;
        byte[][][][] work = [.. Enumerable.Range(0, clients).Select(operations)];
        RespConnection[] connections = [.. Enumerable.Range(0, clients).Select(_ => side.Server.Connect())];
        Samples[] perClient = [.. work.Select(operation => new Samples(operation.Length))];
        var failures = new Exception?[clients];
        using var ready = new Barrier(clients + 1);
        Thread[] threads = [.. Enumerable.Range(0, clients).Select(id => new Thread(() =>
        {
            CpuPlacement.ApplyToCurrentThread(bench.Pinned);
            ready.SignalAndWait();
            try
            {
                foreach (byte[][] operation in work[id])
                {
                    perClient[id].TimeOperation(connections[id], operation);
                }
            }
            catch (Exception e) when (e is InvalidOperationException or System.Net.Sockets.SocketException)
            {
                failures[id] = e;
            }
        }))];
        foreach (Thread thread in threads)
        {
            thread.Start();
        }

        GC.Collect();
        ready.SignalAndWait();
        long begin = Stopwatch.GetTimestamp();
        foreach (Thread thread in threads)
        {
            thread.Join();
        }

        TimeSpan wall = Stopwatch.GetElapsedTime(begin);
        foreach (RespConnection connection in connections)
        {
            connection.Dispose();
        }

        if (failures.FirstOrDefault(f => f is not null) is { } failure)
        {
            throw new InvalidOperationException($"a client of {side.Name} failed: {failure.Message}", failure);
        }

        foreach (Samples own in perClient)
        {
            own.CopyTo(samples);
        }

        return wall;
    }
}
