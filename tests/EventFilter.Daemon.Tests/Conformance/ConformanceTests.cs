using System.Text;
using Xunit.Abstractions;

namespace EventFilter.Daemon.Tests.Conformance;

/// <summary>
/// The differential test against RedisBloom: the same seeded random command sequence goes to RedisBloom (redis-server with
/// the module, <see cref="RedisBloomServer"/>) and to eventfilterd, and every pair of replies must agree in type,
/// value and error text, but for false positives and the deliberate differences of <see cref="KnownDifferences"/>.
/// Skipped, with the reason, where the module is not built (CI).
/// </summary>
public sealed class ConformanceTests(ITestOutputHelper output)
{
    private const int Commands = 3000;
    private const int MismatchesShown = 12;

    [RedisBloomTheory]
    [InlineData(2, 2601)]
    [InlineData(3, 2602)]
    [InlineData(2, 2603)]
    [InlineData(3, 2604)]
    public void Random_sequences_answer_as_RedisBloom_does(int protocol, int seed)
    {
        using var redisBloom = new RedisBloomServer();
        using var directory = new TempDirectory();
        using DaemonProcess daemon = DaemonProcess.Start(directory.Path);
        using var redisClient = new RespClient(redisBloom.SocketPath);
        using RespClient daemonClient = daemon.Connect();
        if (protocol == 3)
        {
            // HELLO's replies name each server, so they are not compared; only that both switched.
            Assert.IsType<RespMap>(redisClient.Call("HELLO", "3"));
            Assert.IsType<RespMap>(daemonClient.Call("HELLO", "3"));
        }

        var generator = new CommandGenerator(seed);
        var judge = new ReplyJudge();
        var mismatches = new List<string>();
        int resyncs = 0;
        for (int i = 0; i < Commands; i++)
        {
            ConformanceCommand command = generator.Next();
            object[] arguments = [.. command.Arguments];
            object? redis = redisClient.Call(arguments), ours = daemonClient.Call(arguments);
            Verdict verdict = judge.Judge(command, redis, ours);
            if (verdict.Mismatch is { } why)
            {
                mismatches.Add($"#{i} {command}: {why}\n    RedisBloom:   {Replies.Show(redis)}\n    eventfilterd: {Replies.Show(ours)}");
            }

            if (verdict.KeyApart)
            {
                // The key now differs between the servers (a false positive counted on one side only, or a
                // deliberate difference in what a write does): delete it on both, so later commands compare again.
                foreach (string key in command.Name == "DEL" ? command.Arguments.Skip(1) : [command.Key!])
                {
                    redisClient.Call("DEL", key);
                    daemonClient.Call("DEL", key);
                    judge.Forget(key);
                }

                resyncs++;
            }
        }

        output.WriteLine($"seed {seed}, RESP{protocol}: {Commands} commands, {judge.FalsePositives} false positives, {resyncs} keys deleted to resynchronise");
        foreach ((string name, int count) in judge.DifferencesSeen)
        {
            output.WriteLine($"  known difference '{name}': {count}");
        }

        Assert.True(mismatches.Count == 0, Report(seed, protocol, mismatches));
    }

    private static string Report(int seed, int protocol, List<string> mismatches)
    {
        var report = new StringBuilder($"seed {seed}, RESP{protocol}: {mismatches.Count} replies differ from RedisBloom's (first {MismatchesShown}):\n");
        foreach (string mismatch in mismatches.Take(MismatchesShown))
        {
            report.Append(mismatch).Append('\n');
        }

        return report.ToString();
    }
}
