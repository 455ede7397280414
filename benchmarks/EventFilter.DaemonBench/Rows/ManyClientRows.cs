using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using EventFilter.DaemonBench.Report;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// Many clients at once. 50 and 200 clients without pipelining, each sending single adds of random items: driven by
/// Debian's redis-benchmark (one event loop for all its clients, so the client's own threads cost no CPU the server
/// needs, and the same tool Redis is judged with), its throughput and latency (p50, p99, p99.9, max) per row, each the median of
/// <see cref="BenchSettings.Repeats"/> runs after a warm-up; under <c>taskset -c 0</c> beside the servers in pinned
/// mode. Then the resident memory that 10,000 idle connections add, each having answered one PING.
/// </summary>
internal static class ManyClientRows
{
    public static void Run(Bench bench, string? redisBenchmark)
    {
        foreach (int clients in redisBenchmark is null ? [] : (int[])[50, 200])
        {
            string row = $"{clients} clients BF.ADD";
            if (!bench.Wanted(row))
            {
                continue;
            }

            Contenders<Measurement[]> runs = bench.Sides.Select(side => Repeated(bench, redisBenchmark!, side, clients));
            bench.Add(row, "ops/s", true, runs.Select(r => r[0]));
            for (int column = 1; column < Columns.Length; column++)
            {
                bench.Add($"{row} {Columns[column]}", "ms", false, runs.Select(r => r[column]));
            }
        }

        bench.Row($"{IdleConnections:N0} idle clients, RSS added", "MB", false, side => new(IdleResidentMegabytes(bench, side)));
    }

    /// <summary>Connections left open and idle by the idle row (the servers are started with room for them).</summary>
    public const int IdleConnections = 10_000;

    // What each run reports, in order: requests a second, then the latency's percentiles in ms.
    private static readonly string[] Columns = ["ops/s", "p50", "p99", "p99.9", "max"];

    /// <summary>Each of <see cref="Columns"/>, the median over the repeats, after one warm-up run.</summary>
    private static Measurement[] Repeated(Bench bench, string program, Side side, int clients)
    {
        int requests = bench.Settings.Quick ? 2_000 : 100_000;
        RedisBenchmark(bench, program, side, clients, requests);
        double[][] runs = [.. Enumerable.Range(0, bench.Settings.Repeats).Select(_ => RedisBenchmark(bench, program, side, clients, requests))];
        return [.. Enumerable.Range(0, Columns.Length).Select(column => new Measurement(Median(runs.Select(r => r[column]))))];
    }

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        return sorted[sorted.Length / 2];
    }

    /// <summary>One redis-benchmark run of single adds of random items to the bench filter: <see cref="Columns"/>.</summary>
    private static double[] RedisBenchmark(Bench bench, string program, Side side, int clients, int requests)
    {
        string[] arguments =
        [
            "-s", side.Server.SocketPath, "-n", requests.ToString(CultureInfo.InvariantCulture),
            "-c", clients.ToString(CultureInfo.InvariantCulture), "-r", "100000000",
            side.Dialect.Add, Side.Key, "__rand_int__",
        ];
        var start = new ProcessStartInfo(bench.Pinned ? "taskset" : program) { RedirectStandardOutput = true, RedirectStandardError = true, UseShellExecute = false };
        foreach (string argument in bench.Pinned ? ["-c", "0", program, .. arguments] : arguments)
        {
            start.ArgumentList.Add(argument);
        }

        using Process process = Process.Start(start) ?? throw new InvalidOperationException("could not start redis-benchmark");
        Task<string> errors = process.StandardError.ReadToEndAsync();
        string output = process.StandardOutput.ReadToEnd();
        process.WaitForExit();

        // Its report (7.0): "throughput summary: N requests per second", then under "latency summary (msec):" a header
        // line and "avg min p50 p95 p99 max"; p99.9 is read from "Latency by percentile distribution:", whose lines
        // "P% <= V milliseconds" step through the histogram: the first at or past 99.9% bounds it from above.
        string[] lines = [.. output.Split('\n', '\r').Select(l => l.Trim()).Where(l => l.Length > 0)];
        int summary = Array.FindIndex(lines, l => l.StartsWith("latency summary", StringComparison.Ordinal));
        string? throughput = lines.FirstOrDefault(l => l.StartsWith("throughput summary:", StringComparison.Ordinal));
        string[] latencies = summary >= 0 && summary + 2 < lines.Length ? lines[summary + 2].Split(' ', StringSplitOptions.RemoveEmptyEntries) : [];
        double? tail = lines
            .Select(l => l.Split(' ', StringSplitOptions.RemoveEmptyEntries))
            .Where(w => w.Length >= 4 && w[0].EndsWith('%') && w[1] == "<=" && w[3] == "milliseconds")
            .Select(w => (Percent: Number(w[0].TrimEnd('%')), Ms: Number(w[2])))
            .FirstOrDefault(p => p.Percent >= 99.9).Ms is var ms and > 0 ? ms : null;
        if (process.ExitCode != 0 || throughput is null || latencies.Length < 6 || tail is null)
        {
            throw new InvalidOperationException($"redis-benchmark against {side.Name} failed (exit {process.ExitCode}): {output} {errors.Result}");
        }

        return [Number(throughput.Split(' ')[2]), Number(latencies[2]), Number(latencies[4]), tail.Value, Number(latencies[5])];
    }

    private static double Number(string text) => double.Parse(text, CultureInfo.InvariantCulture);

    /// <summary>
    /// Opens the idle connections (raw sockets: the client's own buffers would be 64 KiB each), each answering one PING,
    /// waits a moment, and returns what the server's RSS grew by. --quick opens 200 (a CI machine's descriptor limit).
    /// </summary>
    private static double IdleResidentMegabytes(Bench bench, Side side)
    {
        int count = bench.Settings.Quick ? 200 : IdleConnections;
        long before = side.Server.ResidentKilobytes();
        var sockets = new List<Socket>(count);
        byte[] reply = new byte[64];
        try
        {
            for (int i = 0; i < count; i++)
            {
                var socket = new Socket(AddressFamily.Unix, SocketType.Stream, ProtocolType.Unspecified);
                sockets.Add(socket);
                socket.Connect(new UnixDomainSocketEndPoint(side.Server.SocketPath));
                socket.Send(Servers.Dialect.Ping);
                if (socket.Receive(reply) == 0)
                {
                    throw new InvalidOperationException($"{side.Name} closed idle connection {i}");
                }
            }

            // A moment for what the server does after its replies (buffers given back, a collection) to settle.
            Thread.Sleep(TimeSpan.FromSeconds(2));
            return (side.Server.ResidentKilobytes() - before) / 1024.0;
        }
        finally
        {
            foreach (Socket socket in sockets)
            {
                socket.Dispose();
            }
        }
    }
}
