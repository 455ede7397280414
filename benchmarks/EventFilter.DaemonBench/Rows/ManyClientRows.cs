using System.Diagnostics;
using System.Globalization;
using System.Net.Sockets;
using EventFilter.DaemonBench.Report;

namespace EventFilter.DaemonBench.Rows;

/// <summary>
/// Many clients at once. 50 and 200 clients without pipelining, each sending single adds of random items: driven by
/// Debian's redis-benchmark (one event loop for all its clients, so the client's own threads cost no CPU the server
/// needs, and the same tool Redis is judged with), its throughput, p99 and max latency per row, each the median of
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
            bench.Add($"{row} p99", "ms", false, runs.Select(r => r[1]));
            bench.Add($"{row} max", "ms", false, runs.Select(r => r[2]));
        }

        bench.Row($"{IdleConnections:N0} idle clients, RSS added", "MB", false, side => new(IdleResidentMegabytes(bench, side)));
    }

    /// <summary>Connections left open and idle by the idle row (the servers are started with room for them).</summary>
    public const int IdleConnections = 10_000;

    /// <summary>Throughput, p99 and max (each the median over the repeats), after one warm-up run.</summary>
    private static Measurement[] Repeated(Bench bench, string program, Side side, int clients)
    {
        int requests = bench.Settings.Quick ? 2_000 : 100_000;
        RedisBenchmark(bench, program, side, clients, requests);
        double[][] runs = [.. Enumerable.Range(0, bench.Settings.Repeats).Select(_ => RedisBenchmark(bench, program, side, clients, requests))];
        return [.. Enumerable.Range(0, 3).Select(column => new Measurement(Median(runs.Select(r => r[column]))))];
    }

    private static double Median(IEnumerable<double> values)
    {
        double[] sorted = [.. values.Order()];
        return sorted[sorted.Length / 2];
    }

    /// <summary>One redis-benchmark run of single adds of random items to the bench filter: requests/s, p99 ms, max ms.</summary>
    private static double[] RedisBenchmark(Bench bench, string program, Side side, int clients, int requests)
    {
        string[] arguments =
        [
            "-s", side.Server.SocketPath, "-n", requests.ToString(CultureInfo.InvariantCulture),
            "-c", clients.ToString(CultureInfo.InvariantCulture), "-r", "100000000", "--csv",
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

        // --csv: a header line, then "test","rps","avg_latency_ms","min_latency_ms","p50_latency_ms","p95_latency_ms","p99_latency_ms","max_latency_ms".
        string? line = output.Split('\n').Select(l => l.Trim()).LastOrDefault(l => l.Length > 0 && !l.StartsWith("\"test\"", StringComparison.Ordinal));
        string[] fields = line?.Split(',').Select(f => f.Trim('"')).ToArray() ?? [];
        if (process.ExitCode != 0 || fields.Length < 8)
        {
            throw new InvalidOperationException($"redis-benchmark against {side.Name} failed (exit {process.ExitCode}): {output} {errors.Result}");
        }

        return [Number(fields[1]), Number(fields[6]), Number(fields[7])];
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
