using System.Diagnostics;
using System.Net;
using System.Net.Sockets;

namespace EventFilter.Daemon.Tests.RedisClients;

/// <summary>
/// Redis's own tools and clients, unchanged, against eventfilterd (docs/daemon.md, "Clients"): redis-py's default
/// pipeline, redis-cli --pipe and HELP, redis-benchmark's default tests and Debian's prometheus-redis-exporter. Each
/// pins a failure found from outside: a transaction's commands ran while EXEC failed; --pipe's closing empty line was
/// a protocol error; HELP was blank; PING_INLINE aborted the benchmark; LATENCY and SLOWLOG were unknown to the exporter.
/// </summary>
public sealed class RedisClientToolTests(DaemonFixture fixture) : IClassFixture<DaemonFixture>
{
    private const string RedisCli = "/usr/bin/redis-cli";
    private const string RedisBenchmark = "/usr/bin/redis-benchmark";
    private const string Exporter = "/usr/bin/prometheus-redis-exporter";
    private const string Python = RedisBloomFlow.RedisBloomFlowFactAttribute.Python;

    private string Socket => fixture.Daemon.SocketPath;

    [RedisToolFact(Python, "python3-redis")]
    public void Redis_py_s_default_pipeline_runs_as_a_transaction()
    {
        (int exit, string output) = ToolRun.Of(Python, null, Path.Combine(AppContext.BaseDirectory, "RedisClients", "redis_py_pipeline.py"), Socket);
        Assert.True(exit == 0, output);
        Assert.Contains("redis-py: ok", output, StringComparison.Ordinal);
    }

    [RedisToolFact(RedisCli, "redis-tools")]
    public void Redis_cli_pipe_exits_0_with_its_summary()
    {
        string input = "*3\r\n$6\r\nBF.ADD\r\n$8\r\ncli-pipe\r\n$1\r\na\r\nBF.ADD cli-pipe b\r\n\r\nBF.EXISTS cli-pipe a\n";
        (int exit, string output) = ToolRun.Of(RedisCli, input, "-s", Socket, "--pipe");
        Assert.True(exit == 0, output);
        Assert.Contains("errors: 0, replies: 3", output, StringComparison.Ordinal);
        using RespClient client = fixture.Connect();
        Assert.Equal(new object?[] { 1L, 1L }, client.Call("BF.MEXISTS", "cli-pipe", "a", "b"));
    }

    [RedisToolFact(RedisCli, "redis-tools")]
    public void Redis_cli_help_shows_each_command_s_syntax_and_summary()
    {
        // redis-cli builds HELP (and its typing hints) from COMMAND DOCS, which once answered an empty map.
        (int exit, string output) = ToolRun.Of(RedisCli, null, "-s", Socket, "HELP", "BF.INSERT");
        Assert.True(exit == 0, output);
        Assert.Contains("key [CAPACITY capacity] [ERROR error] [EXPANSION expansion] [NOCREATE] [NONSCALING] ITEMS item [item ...]", output, StringComparison.Ordinal);
        Assert.Contains("Adds items to a Bloom filter", output, StringComparison.Ordinal);
    }

    [RedisToolFact(RedisBenchmark, "redis-tools")]
    public void Redis_benchmark_s_default_tests_run_or_are_refused_as_unknown_commands()
    {
        // Without -t, redis-benchmark stops at its first error reply by design, and SET is the third test: the two
        // PING tests (PING_INLINE once aborted the run) complete, and SET is refused cleanly.
        (int exit, string output) = ToolRun.Of(RedisBenchmark, null, "-s", Socket, "-n", "20", "-c", "2", "-q");
        Assert.True(exit == 1, output);
        Assert.Contains("PING_INLINE: ", output, StringComparison.Ordinal);
        Assert.Contains("PING_MBULK: ", output, StringComparison.Ordinal);
        Assert.Contains("Error from server: ERR unknown command 'SET'", output, StringComparison.Ordinal);

        // Each of the default run's tests alone: the PINGs run, every other one is a clean unknown-command refusal.
        string[] refused = ["set", "get", "incr", "lpush", "rpush", "lpop", "rpop", "sadd", "hset", "spop", "zadd", "zpopmin", "lrange", "mset"];
        foreach (string test in refused)
        {
            (exit, output) = ToolRun.Of(RedisBenchmark, null, "-s", Socket, "-n", "10", "-c", "1", "-q", "-t", test);
            Assert.True(exit == 1, $"{test}: {output}");
            Assert.Contains("Error from server: ERR unknown command '", output, StringComparison.Ordinal);
        }

        // And what eventfilterd serves, as a custom command.
        (exit, output) = ToolRun.Of(RedisBenchmark, null, "-s", Socket, "-n", "200", "-c", "4", "-r", "1000", "-q", "BF.ADD", "bench", "__rand_int__");
        Assert.True(exit == 0, output);
        Assert.Contains("BF.ADD bench __rand_int__: ", output, StringComparison.Ordinal);
        Assert.DoesNotContain("Could not fetch server CONFIG", output, StringComparison.Ordinal);
        using RespClient client = fixture.Connect();
        Assert.Equal("PONG", client.Call("PING"));
    }

    [RedisToolFact(Exporter, "prometheus-redis-exporter")]
    public async Task Prometheus_redis_exporter_scrapes_without_errors()
    {
        int port = FreePort();
        var start = new ProcessStartInfo(Exporter)
        {
            RedirectStandardOutput = true,
            RedirectStandardError = true,
            UseShellExecute = false,
            ArgumentList = { "--debug", $"--redis.addr=unix://{Socket}", $"--web.listen-address=127.0.0.1:{port}" },
        };
        using Process exporter = Process.Start(start)!;
        var log = new System.Text.StringBuilder();
        exporter.ErrorDataReceived += (_, e) => { lock (log) { log.AppendLine(e.Data); } };
        exporter.OutputDataReceived += (_, e) => { lock (log) { log.AppendLine(e.Data); } };
        exporter.BeginErrorReadLine();
        exporter.BeginOutputReadLine();
        try
        {
            using var http = new HttpClient();
            string metrics = "";
            await Poll.UntilAsync(async () =>
            {
                try
                {
                    metrics = await http.GetStringAsync(new Uri($"http://127.0.0.1:{port}/metrics"));
                    return true;
                }
                catch (HttpRequestException)
                {
                    return false; // not listening yet
                }
            }, "redis_exporter serves /metrics");

            string[] lines = metrics.Split('\n');
            Assert.Contains("redis_up 1", lines);
            Assert.Contains("redis_exporter_last_scrape_error{err=\"\"} 0", lines);
            Assert.Contains("redis_slowlog_length 0", lines);
            exporter.Kill();
            exporter.WaitForExit();
            string text;
            lock (log)
            {
                text = log.ToString();
            }

            // Every command it sent was answered without an error reply (its debug log shows each reply's failure).
            Assert.Contains("running command: SLOWLOG [LEN]", text, StringComparison.Ordinal);
            Assert.Contains("running command: LATENCY [LATEST]", text, StringComparison.Ordinal);
            Assert.DoesNotContain("ERR ", text, StringComparison.Ordinal);
            Assert.DoesNotContain("level=error", text, StringComparison.Ordinal);
        }
        finally
        {
            if (!exporter.HasExited)
            {
                exporter.Kill();
            }
        }
    }

    private static int FreePort()
    {
        using var listener = new TcpListener(IPAddress.Loopback, 0);
        listener.Start();
        return ((IPEndPoint)listener.LocalEndpoint).Port;
    }
}
