using System.Diagnostics;
using EventFilter.PostgreSql;
using Microsoft.Extensions.DependencyInjection;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;

namespace EventFilter.PostgreSqlBench;

/// <summary>
/// One process of a run (<c>--child</c>): a host as a user builds it (the hosted filter and the package over the
/// table), driven over stdin and stdout: it says "ready" once its filter has caught up, waits for "go", does its part,
/// prints one result line, and stops cleanly on "stop".
/// </summary>
internal static class BenchProcess
{
    public static async Task<int> RunAsync(Arguments arguments)
    {
        using IHost host = Build(arguments);
        await host.StartAsync();
        await host.Services.GetRequiredService<IStreamExistenceFilter>().WhenReady;
        var readPosition = host.Services.GetRequiredService<IFilterReadPosition>();
        Console.WriteLine($"ready {readPosition.ReadPosition}");
        await ExpectAsync("go");
        var appender = host.Services.GetRequiredService<PostgreSqlAppender>();
        string result = arguments.Get("--role") switch
        {
            "appends" => await AppendManyAsync(appender, arguments),
            "writer" => await WritePacedAsync(appender, arguments),
            "reader" => await WatchAsync(readPosition, arguments),
            string other => throw new ArgumentException($"no role {other}"),
            null => throw new ArgumentException("--role is required"),
        };
        Console.WriteLine(result);
        await ExpectAsync("stop");
        await host.StopAsync();
        return 0;
    }

    private static IHost Build(Arguments arguments)
    {
        HostApplicationBuilder builder = Host.CreateApplicationBuilder([]);
        builder.Logging.ClearProviders().AddConsole(options => options.LogToStandardErrorThreshold = LogLevel.Trace).SetMinimumLevel(LogLevel.Warning);
        builder.Services.AddStreamExistenceFilter(options =>
        {
            options.DataDirectory = arguments.Get("--directory")!;
            options.StreamExistenceFilterSize = arguments.Get("--size") ?? "16MB";
        });
        builder.Services.AddPostgreSqlStreamLog(options =>
        {
            options.ConnectionString = arguments.Connection;
            if (arguments.Has("--notify-off"))
            {
                options.NotifyChannel = "";
            }
        });
        return builder.Build();
    }

    // Its share of new streams from --writers tasks at once; --duplicates percent of them are streams every process
    // creates at about the same time (shared-N): one wins, the others find it taken, by the lookup or by the constraint.
    private static async Task<string> AppendManyAsync(PostgreSqlAppender appender, Arguments arguments)
    {
        int process = arguments.Int("--process", 0), count = arguments.Int("--count", 1000);
        int duplicates = arguments.Int("--duplicates", 0);
        long skipped = 0, retried = 0, refused = 0;
        int next = -1;
        await Task.WhenAll(Enumerable.Range(0, arguments.Int("--writers", 4)).Select(_ => Task.Run(async () =>
        {
            for (int i = Interlocked.Increment(ref next); i < count; i = Interlocked.Increment(ref next))
            {
                var append = await Writes.CreateAsync(appender, i % 100 < duplicates ? $"shared-{i}" : $"p{process}-{i}");
                Interlocked.Add(ref skipped, append.SkippedLookUp ? 1 : 0);
                Interlocked.Add(ref retried, append.Attempts - 1);
                Interlocked.Add(ref refused, append.Created ? 0 : 1);
            }
        })));
        return $"done {count} {skipped} {retried} {refused}";
    }

    // One append at a time, --pace-ms apart; each with the moment its code returned, just before the commit.
    private static async Task<string> WritePacedAsync(PostgreSqlAppender appender, Arguments arguments)
    {
        var commits = new List<string>();
        for (int i = 0; i < arguments.Int("--count", 1000); i++)
        {
            var append = await Writes.CreateAsync(appender, $"paced-{i}");
            commits.Add($"{append.Commit.End}:{append.Commit.Committing}");
            await Task.Delay(arguments.Int("--pace-ms", 10));
        }

        return "commits " + string.Join(',', commits);
    }

    // Each time the read position moves, where to and when, until it has passed --count records past its start.
    private static async Task<string> WatchAsync(IFilterReadPosition readPosition, Arguments arguments)
    {
        var moves = new List<string>();
        long position = readPosition.ReadPosition, target = position + arguments.Int("--count", 1000);
        while (position < target)
        {
            await readPosition.WaitForReadPositionAsync(position + 1, CancellationToken.None);
            long now = Stopwatch.GetTimestamp();
            position = readPosition.ReadPosition;
            moves.Add($"{position}:{now}");
        }

        return "moves " + string.Join(',', moves);
    }

    private static async Task ExpectAsync(string word)
    {
        string? line = await Console.In.ReadLineAsync();
        if (line != word)
        {
            throw new InvalidOperationException($"expected '{word}' from the driver, got '{line}'");
        }
    }
}
